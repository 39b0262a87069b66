import { XmlMapping } from '../../parsing/xml/xml-mapping';

/**
 * The default EAD 2002 mapping: the reference's `ead2002.properties`
 * (`test/fixtures/ehri/mappings/ead2002.properties`), plus the two lines with which the
 * reference's current version captures `unitdate/@normal` for its date parser.
 */
export const EAD2002_PROPERTIES = `archdesc/@levelOfDesc=levelOfDescription
c/@levelOfDesc=levelOfDescription
c01/@levelOfDesc=levelOfDescription
c02/@levelOfDesc=levelOfDescription
c03/@levelOfDesc=levelOfDescription
c04/@levelOfDesc=levelOfDescription
c05/@levelOfDesc=levelOfDescription
c06/@levelOfDesc=levelOfDescription
c07/@levelOfDesc=levelOfDescription
c08/@levelOfDesc=levelOfDescription
c09/@levelOfDesc=levelOfDescription
profiledesc/creation/date/=creationDate
profiledesc/langusage/language/@languagecode=languageCode
filedesc/titlestmt/author/=processInfo
accruals/p/=accruals
acqinfo/p/=acquisition
appraisal/p/=appraisal
custodhist/p/=archivalHistory
eadheader/eadid/=sourceFileId
# EAD V1.0 hack (see <add> section: http://www.loc.gov/ead/tglib/elements/otherfindaid.html)
otherfindaid/p/=findingAids
add/otherfindaid/p/=findingAids
bioghist/p/=biographicalHistory
accessrestrict/p/=conditionsOfAccess
userestrict/p/=conditionsOfReproduction
# NB: Used in ICA-Atom as ISAD(G) 3.7.3, but standard points to 3.7.1
profiledesc/descrules/=rulesAndConventions
processinfo/p/=archivistNote
processinfo/p/date/=datesOfDescriptions
processinfo/p/bibref/=sources
processinfo/note/p/=ref
did/abstract/=abstract
did/physdesc/extent/=extentAndMedium
did/physdesc/physfacet/=extentAndMedium
did/unitid/=objectIdentifier
# NB: This is kind of a hack since materialspec
# is not a good fit for this kind of info really:
did/materialspec/extptr/@extptrhref=ref
altformavail/p/=locationOfCopies
originalsloc/p/=locationOfOriginals
did/unittitle/=name
did/note/p/=notes
odd/p/=notes
langmaterial/language/@languagecode=languageOfMaterial
phystech/p/=physicalCharacteristics
scopecontent/p/=scopeAndContent
arrangement/p/=systemOfArrangement
bibliography/p/=publicationNote
did/origination/persname/=creatorAccessPoint
did/origination/corpname/=creatorAccessPoint
did/origination/name/=creatorAccessPoint
controlaccess/subject/=subjectAccessPoint
controlaccess/persname/=personAccessPoint
controlaccess/famname/=familyAccessPoint
controlaccess/corpname/=corporateBodyAccessPoint
controlaccess/corpname/@accessRole=role
controlaccess/geogname/=placeAccessPoint
controlaccess/genreform/=genreAccessPoint
controlaccess/p/subject/=subjectAccessPoint
controlaccess/p/persname/=personAccessPoint
controlaccess/p/famname/=familyAccessPoint
controlaccess/p/corpname/=corporateBodyAccessPoint
controlaccess/p/geogname/=placeAccessPoint
controlaccess/p/genreform/=genreAccessPoint
did/unitdate/=unitDates
relatedmaterial/=relatedUnitsOfDescription
relatedmaterial/p/=relatedUnitsOfDescription
separatedmaterial/=separatedUnitsOfDescription
separatedmaterial/p/=separatedUnitsOfDescription
#attributes
@level=levelOfDesc
@langcode=languagecode
@href=extptrhref
# TODO: langmaterial
did/unitdate/@normal=unitDatesNormal
@normal=normal
`;

export const DEFAULT_EAD_MAPPING = XmlMapping.parse(EAD2002_PROPERTIES);
