import { Bundle } from '../../../items/bundle';
import { ConceptProblem, PrefLabel, conceptData, conceptDescriptions, prefLabels } from './concept-bundle';
import { RdfGraph, isBlankKey } from './rdf-graph';

/** A concept's local identifier (from its URI) and its id (inside the vocabulary). */
export interface ConceptIdentity {
  localId: string;
  id: string;
}

/** A concept of the file that can be imported: what it needs before its bundle is built. */
export interface ConceptPlan extends ConceptIdentity {
  uri: string;
  labels: PrefLabel[];
}

/** A concept of the file that cannot be imported, and why. */
export interface ConceptRefusal {
  uri: string;
  problem: ConceptProblem;
}

export function isRefusal(entry: ConceptPlan | ConceptRefusal): entry is ConceptRefusal {
  return 'problem' in entry;
}

function refusal(uri: string, field: string, message: string): ConceptRefusal {
  return { uri, problem: new ConceptProblem(field, message) };
}

/**
 * Decides, before anything is built, which concepts of the file are imported: a concept needs a
 * URI, a local identifier in it, an id no other concept of the file has, and at most one
 * preferred label per language. Relations are then only made between the concepts that pass.
 */
export function planConcepts(
  graph: RdfGraph,
  uris: readonly string[],
  identify: (uri: string) => ConceptIdentity | undefined,
  defaultLang: string,
): (ConceptPlan | ConceptRefusal)[] {
  const firstUriOf = new Map<string, string>();
  return uris.map((uri) => {
    if (isBlankKey(uri)) return refusal(uri, 'uri', 'a concept must have a URI, not a blank node');
    const identity = identify(uri);
    if (identity === undefined) {
      const advice = 'set the baseURI and suffix parameters to what surrounds the local id';
      return refusal(uri, 'identifier', `no local identifier in the URI (${advice})`);
    }
    const first = firstUriOf.get(identity.id);
    if (first !== undefined)
      return refusal(uri, 'identifier', `the id ${identity.id} is already that of concept ${first}`);
    firstUriOf.set(identity.id, uri);
    try {
      return { uri, ...identity, labels: prefLabels(graph, uri, identity.id, defaultLang) };
    } catch (error) {
      if (error instanceof ConceptProblem) return { uri, problem: error };
      throw error;
    }
  });
}

/** The concept's bundle: its own fields and one description per preferred label. */
export function conceptBundle(graph: RdfGraph, plan: ConceptPlan, defaultLang: string): Bundle {
  return {
    id: plan.id,
    type: 'CvocConcept',
    data: conceptData(graph, plan.uri, plan.localId),
    relations: { describes: conceptDescriptions(graph, plan.uri, plan.labels, defaultLang) },
  };
}
