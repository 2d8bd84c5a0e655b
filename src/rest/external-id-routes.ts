import { EXTERNAL_ID_RESOURCES } from '../modules/custom-field/external-id.resources';
import { getByExternalId, lockByExternalId, upsertByExternalId } from '../modules/custom-field/external-id.service';
import type { Scope } from '../domain/scopes';
import type { RouteDef } from './route';

/**
 * GET and PUT `/<plural>/by_external_id/{source}/{id}` of every resource with external ids
 * (docs/custom-fields.md), written from the resource's own GET and PUT rows: the same output,
 * embedded summaries and body. The PUT creates (201) or updates (200). These rows come before the
 * table's (src/rest/routes.ts), so `/jobs/by_external_id/photos/x` is an external id (source
 * `photos`), never job `by_external_id`'s photo `x` (not a UUID, which no record has).
 */
export function externalIdRoutes(table: readonly RouteDef[]): RouteDef[] {
  return EXTERNAL_ID_RESOURCES.flatMap(({ plural, scope, spec }) => {
    const get = table.find((r) => r.method === 'GET' && r.path === `/${plural}/:uuid`)!;
    const put = table.find((r) => r.method === 'PUT' && r.path === `/${plural}/:uuid`)!;
    const path = `/${plural}/by_external_id/:source/:id`;
    const noun = spec.label.toLowerCase();
    return [
      { method: 'GET', path, operationId: `get${spec.label}ByExternalId`, scope: `${scope}:read` as Scope, summary: `Get a ${noun} by its id in another system`, output: get.output, embed: get.embed, call: (ctx, a) => getByExternalId(ctx, spec, a.params.source, a.params.id) },
      {
        method: 'PUT',
        path,
        operationId: `upsert${spec.label}ByExternalId`,
        scope: `${scope}:write` as Scope,
        summary: spec.createRecord ? `Create (201) or update (200) the ${noun} with this id in another system` : `Update the ${noun} with this id in another system (create it with its own route)`,
        body: put.body,
        output: put.output,
        embed: put.embed,
        upsert: true,
        lock: (ctx, params) => lockByExternalId(ctx, spec, params.source, params.id),
        call: (ctx, a) => upsertByExternalId(ctx, spec, a.params.source, a.params.id, a.body),
      },
    ] satisfies RouteDef[];
  });
}
