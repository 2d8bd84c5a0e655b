import type { RequestContext } from '../../data/context';
import { liveDefinitionsOf } from '../custom-field/custom-data';
import { CustomFieldDefinition, CustomFieldResource } from '../custom-field/custom-field.entity';
import { fieldText } from './pdf.format';

// The custom fields a document prints (docs/documents.md, "Custom fields on documents"): those
// whose live definition has show_on_documents, of the document itself, its job, its customer and
// its service location, each with its label and its value as documents write it, in the
// definitions' order. Empty values are left out.

type Kind = 'invoice' | 'estimate';

export interface DocumentField {
  label: string;
  text: string;
}

/** The printed fields by the block that shows them: the document's own and its job's in the header, the customer's and the location's with theirs. */
export interface DocumentFields {
  document: DocumentField[];
  job: DocumentField[];
  customer: DocumentField[];
  location: DocumentField[];
}

export type ShownDefinitions = Record<keyof DocumentFields, CustomFieldDefinition[]>;

/** The resource whose definitions each block prints, for a document of `kind`. */
export function printedResources(kind: Kind): Record<keyof DocumentFields, CustomFieldResource> {
  return {
    document: kind === 'invoice' ? CustomFieldResource.INVOICE : CustomFieldResource.ESTIMATE,
    job: CustomFieldResource.JOB,
    customer: CustomFieldResource.CUSTOMER,
    location: CustomFieldResource.LOCATION,
  };
}

const BLOCKS = ['document', 'job', 'customer', 'location'] as const;

/** A document's shown definitions of the company (ctx's), per block: the request's live definitions (one statement), those with show_on_documents. */
export async function shownDefinitions(ctx: RequestContext, kind: Kind): Promise<ShownDefinitions> {
  const resources = printedResources(kind);
  const defs = await liveDefinitionsOf(ctx, BLOCKS.map((b) => resources[b]));
  const shown = {} as ShownDefinitions;
  BLOCKS.forEach((b, i) => (shown[b] = defs[i].filter((d) => d.showOnDocuments)));
  return shown;
}

/** What a document without shown definitions prints: nothing. */
export const NO_FIELDS: DocumentFields = { document: [], job: [], customer: [], location: [] };

/** The printed fields of the records' custom_fields (null: the document has no such record). */
export function documentFields(shown: ShownDefinitions, values: Record<keyof DocumentFields, Record<string, unknown> | null>): DocumentFields {
  const out = {} as DocumentFields;
  for (const b of BLOCKS) {
    out[b] = [];
    for (const d of shown[b]) {
      const text = fieldText(d.type, values[b]?.[d.key]);
      if (text !== null) out[b].push({ label: d.label, text });
    }
  }
  return out;
}
