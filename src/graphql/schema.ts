import { GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { BuildSchemaOptions, buildSchemaSync, getMetadataStorage, NonEmptyArray, type PubSub } from 'type-graphql';
import { validateInput } from '../schema/validation';
import { fieldsOf } from '../schema/fields';
import { callFieldResolversDirectly } from './direct-resolvers';
import { resolveGetterFields } from './getter-fields';
import { describeAccess } from './access';
import { withholdMoneyFields } from './withheld-fields';
import { CompanyResolver } from '../modules/company/company.resolver';
import { CustomerResolver } from '../modules/customer/customer.resolver';
import { CustomerJobsResolver, JobResolver } from '../modules/job/job.resolver';
import { JobPhotoResolver } from '../modules/job-photo/job-photo.resolver';
import { CustomerInvoicesResolver, InvoiceResolver, JobInvoicesResolver } from '../modules/invoice/invoice.resolver';
import { LocationResolver } from '../modules/location/location.resolver';
import { CustomerPaymentsResolver, PaymentResolver } from '../modules/payment/payment.resolver';
import { CustomerEstimatesResolver, EstimateResolver, JobEstimatesResolver } from '../modules/estimate/estimate.resolver';
import { NumberingResolver } from '../modules/numbering/numbering.resolver';
import { TemplateResolver } from '../modules/template/template.resolver';
import { UserResolver } from '../modules/user/user.resolver';
import { ApiKeyResolver } from '../modules/api-key/api-key.resolver';
import { JobVisitsResolver, UserVisitsResolver, VisitResolver } from '../modules/visit/visit.resolver';
import { JobScheduleResolver } from '../modules/schedule/schedule.resolver';
import { RecurringInvoiceResolver } from '../modules/recurring/recurring.resolver';

// Every resolver of the API; a new module adds its resolver here.
export const resolvers: NonEmptyArray<Function> = [CompanyResolver, UserResolver, CustomerResolver, LocationResolver, InvoiceResolver, CustomerInvoicesResolver, JobInvoicesResolver, PaymentResolver, CustomerPaymentsResolver, JobResolver, CustomerJobsResolver, JobPhotoResolver, TemplateResolver, EstimateResolver, CustomerEstimatesResolver, JobEstimatesResolver, NumberingResolver, ApiKeyResolver, VisitResolver, JobVisitsResolver, UserVisitsResolver, JobScheduleResolver, RecurringInvoiceResolver, ConversionResolver, OnlinePaymentResolver, InvoiceDocumentResolver, EstimateDocumentResolver, ShareLinkResolver, EventResolver, LiveResolver, WebhookResolver, ImportResolver, NodeResolver, CustomFieldResolver, ...customFieldValueResolvers, ...externalIdResolvers];
import { NodeResolver } from './node-resolver';
import { ConversionResolver } from '../modules/conversion/conversion.resolver';
import { OnlinePaymentResolver } from '../modules/online-payment/online-payment.resolver';
import { EstimateDocumentResolver, InvoiceDocumentResolver, ShareLinkResolver } from '../modules/document/document.resolver';
import { EventResolver } from '../modules/event/event.resolver';
import { LiveResolver } from '../modules/live/live.resolver';
import { WebhookResolver } from '../modules/webhook/webhook.resolver';
import { ImportResolver } from '../modules/import/import.resolver';
import { CustomFieldResolver, customFieldValueResolvers } from '../modules/custom-field/custom-field.resolver';
import { externalIdResolvers } from '../modules/custom-field/external-id.resolver';

const cached = new Map<boolean, GraphQLSchema>();

const topicsUnused = (): never => {
  throw new Error('subscriptions of this schema use no topics (see src/modules/live/live.resolver.ts)');
};
const noTopics: PubSub = { publish: topicsUnused, subscribe: topicsUnused };

/**
 * Query arguments (`@ArgsType` classes: list pages and filters, upload options) take an explicit
 * null as not given, as their nullable GraphQL types promise: generated clients send null for every
 * unset variable. Input objects keep the partial-update rule (null clears, or 400 when it cannot).
 */
let argsClasses: Set<unknown> | undefined;

function dropNullArguments(value: object, type: unknown): void {
  // Known once the schema is built; looked up on every argument of every request.
  argsClasses ??= new Set(getMetadataStorage().argumentTypes.map((a) => a.target));
  if (!argsClasses.has(type)) return;
  for (const [k, v] of Object.entries(value)) if (v === null) delete (value as Record<string, unknown>)[k];
}

/** The schema; `directCalls` false: every field resolver through TypeGraphQL's handler (GRAPHQL_DIRECT_CALLS=false). */
export function buildGraphQLSchema(directCalls = true): GraphQLSchema {
  const hit = cached.get(directCalls);
  if (hit) return hit;
  const options: BuildSchemaOptions = {
    resolvers,
    // Subscriptions bring their own subscribe function (the process's feed reader,
    // src/modules/live/live.hub.ts), never topics; TypeGraphQL asks for a PubSub all the same.
    pubSub: noTopics,
    validate: false,
    // TypeGraphQL would run the introspection query on every build to find errors in it (a tenth
    // of a second at every start); test/graphql/limits.spec.ts runs it on the served schema.
    skipCheck: true,
    // The same validation as REST, on every input object and args class.
    validateFn: async (value, type) => {
      const values = Array.isArray(value) ? value : [value];
      for (const v of values) {
        if (!v || typeof v !== 'object') continue;
        dropNullArguments(v, type);
        if (fieldsOf(v.constructor).some((f) => f.io === 'in')) await validateInput(v, 'graphql');
      }
    },
  };
  const schema = buildSchemaSync(options);
  // Getter-backed fields read through a resolver, so that a getter's error is the field's error.
  resolveGetterFields(schema);
  // Every root field declares its scope, and its description names it (src/graphql/access.ts).
  describeAccess(schema);
  // Money fields answer null to a technician (src/schema/withheld.ts).
  withholdMoneyFields(schema);
  // Only the fields marked @DirectCall() (src/graphql/direct-resolvers.ts).
  if (directCalls) callFieldResolversDirectly(schema, resolvers, options.globalMiddlewares ?? []);
  cached.set(directCalls, schema);
  return schema;
}

/** The SDL committed at schema/schema.graphql. */
export function printSdl(): string {
  return printSchema(lexicographicSortSchema(buildGraphQLSchema())) + '\n';
}
