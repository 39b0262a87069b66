import { XmlMapping } from '../../parsing/xml/xml-mapping';

/**
 * The reference's default EAC-CPF mapping (`eac.properties`), verbatim: element paths to the
 * fields of a historical agent, its description and its sub-nodes (names, dates, maintenance
 * events, relations). The `properties` parameter replaces it.
 */
export const EAC_PROPERTIES = `recordId/=descriptionIdentifier
control/languageDeclarations/language/@langCode=languageCode
maintenanceHistory/maintenanceEvent/=MaintenanceEvent
maintenanceHistory/maintenanceEvent/eventType/=eventType
maintenanceHistory/maintenanceEvent/eventDateTime/=date
maintenanceHistory/maintenanceEvent/agentType/=agentType
maintenanceHistory/maintenanceEvent/agent/=agent
sourceEntry/=source
entityId/=objectIdentifier
entityId/@url=descriptionUrl
entityType/=typeOfEntity
#nameEntry/part/=otherFormsOfName
nameEntry/@default/=name
nameEntry/=NameEntry
nameEntry/part/=namePart
nameEntry/@nameType=nameType
existDates/date/=datesOfExistence
#<date>, <dateRange><fromDate> <dateRange><toDate>, or <dateSet><date> <dateSet><dateRange> can also occur in function, occupation etc.
existDates/dateRange/=DatePeriod
existDates/dateRange/fromDate/=startDate
existDates/dateRange/toDate/=endDate
place/placeEntry/=place
function/term/=functions
occupation/term/=occupation
mandate/term/=mandates
legalStatus/term/=legalStatus
structureOrGenealogy/p/=structure
generalContext/p/=generalContext
biogHist/p/=biographicalHistory
@languageCode=langCode
@href=url
relations/cpfRelation/=AccessPoint
relations/cpfRelation/@relationType=type
relations/cpfRelation/@url=url
relations/cpfRelation/relationEntry/=name
relations/cpfRelation/descriptiveNote/=description
@cpfRelationType=relationType
@type=nameType
@part=default
`;

export const DEFAULT_EAC_MAPPING = XmlMapping.parse(EAC_PROPERTIES);
