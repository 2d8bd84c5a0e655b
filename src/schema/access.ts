import { Extensions } from 'type-graphql';
import type { Resource, Scope } from '../domain/scopes';

// Access declared where a GraphQL operation is declared (docs/people-and-access.md); read by one
// check per operation before execution (src/graphql/access.ts), which also writes each field's
// scope into its description.

/** What a field needs: every root Query and Mutation field declares it; `@Needs()` needs nothing. */
export function Needs(...scopes: Scope[]) {
  return Extensions({ scope: scopes });
}

/** The resource an object type shows: any field that returns it needs `<resource>:read` unless it declares its own. */
export function ShowsResource(resource: Resource) {
  return Extensions({ resource });
}
