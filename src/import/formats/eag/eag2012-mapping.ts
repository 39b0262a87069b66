import { XmlMapping } from '../../parsing/xml/xml-mapping';

/** EAG 2012's namespace; documents in it are read with `EAG_2012_MAPPING`. */
export const EAG_2012_NAMESPACE = 'http://www.archivesportaleurope.net/Portal/profiles/eag_2012/';

/**
 * The default mapping of EAG 2012 (Archives Portal Europe, `eag_2012.xsd`). The reference has no
 * mapping for it, so this one sends EAG 2012's elements to the fields `eag.properties` sends the
 * corresponding elements of the reference's EAG profile to. Of several repositories (`desc/
 * repositories/repository`) and locations, every value is kept. The control section is read as
 * `eac.properties` reads EAC-CPF's, which it copies.
 */
export const EAG_2012_PROPERTIES = `control/recordId/=descriptionIdentifier
control/maintenanceHistory/maintenanceEvent/=MaintenanceEvent
maintenanceEvent/agent/=agent
maintenanceEvent/agentType/=agentType
maintenanceEvent/eventType/=eventType
maintenanceEvent/eventDateTime/=date
control/languageDeclarations/languageDeclaration/language/@langCode=languageCode
control/conventionDeclaration/citation/=rulesAndConventions
control/sources/source/sourceEntry/=sources

identity/repositorid/@identifier=objectIdentifier
identity/repositorid/@countryCode=address/countryCode
identity/otherRepositorId/=otherIdentifiers
identity/autform/=name
identity/parform/=parallelFormsOfName
identity/nonpreform/=otherFormsOfName
identity/repositoryType/=typeOfEntity

repository/geogarea/=geoculturalContext
repository/location/country/=address/country
repository/location/firstdem/=address/firstdem
repository/location/secondem/=address/secdem
repository/location/municipalityPostalcode/=address/municipality
repository/location/street/=address/street
repository/telephone/=address/telephone
repository/fax/=address/fax
repository/email/@url=address/email
repository/webpage/@url=address/webpage
repository/repositorhist/descriptiveNote/p/=history
repository/buildinginfo/building/descriptiveNote/p/=buildings
repository/adminhierarchy/adminunit/=administrativeStructure
repository/holdings/descriptiveNote/p/=holdings
repository/timetable/opening/=openingTimes
repository/access/restaccess/=conditions
repository/access/termsOfUse/=conditions
repository/accessibility/=accessibility
repository/services/searchroom/researchServices/descriptiveNote/p/=researchServices
repository/services/techservices/reproductionser/descriptiveNote/p/=reproductionServices

#attributes
@countrycode=countryCode
@repositorycode=identifier
@languageCode=langCode
@href=url
`;

export const EAG_2012_MAPPING = XmlMapping.parse(EAG_2012_PROPERTIES);
