// GraphiQL for a browser at /graphql: the browser entry that scripts/build.js bundles with esbuild
// into dist/graphiql/ (one JS and one CSS file, named by their content's hash), which the server
// serves itself (src/graphql/graphiql.ts). Not part of the server: no TypeScript, nothing of src/.
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import { StrictMode, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import 'graphiql/style.css';
import './page.css';

const ENDPOINT = '/graphql';
// The key stays in this browser (localStorage, this origin only), never in a cookie, and is sent
// only as the Authorization header of this page's requests.
const KEY_ITEM = 'field-service-crm:api-key';

const DEFAULT_QUERY = `# Type your API key above, then run this query (Ctrl-Enter).
# Ctrl-Space completes fields; the Docs panel (left) browses the schema.
{
  company {
    id
    name
  }
}
`;

function readKey() {
  try {
    return localStorage.getItem(KEY_ITEM) ?? '';
  } catch {
    return '';
  }
}

function storeKey(key) {
  try {
    if (key) localStorage.setItem(KEY_ITEM, key);
    else localStorage.removeItem(KEY_ITEM);
  } catch {
    // storage refused (private mode): the key lives in the field only
  }
}

/** A fetcher whose every request (queries, mutations, introspection) carries the key as a Bearer token. */
function keyedFetcher(key) {
  return createGraphiQLFetcher({
    url: ENDPOINT,
    fetch: (url, init = {}) => {
      const headers = new Headers(init.headers);
      if (key) headers.set('Authorization', `Bearer ${key}`);
      return fetch(url, { ...init, headers });
    },
    // Subscriptions over graphql-ws on the same path (docs/live-updates.md), the key in
    // connection_init; every other operation over HTTP.
    subscriptionUrl: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${ENDPOINT}`,
    wsConnectionParams: key ? { authorization: `Bearer ${key}` } : {},
  });
}

function Page() {
  const [key, setKey] = useState(readKey);
  const field = useRef(null);
  // A new fetcher when the key is applied (on leaving the field, or Enter): GraphiQL introspects
  // again with it. Without a key there is nothing to introspect (the server answers 401).
  const fetcher = useMemo(() => keyedFetcher(key), [key]);
  const apply = () => {
    const typed = field.current.value.trim();
    storeKey(typed);
    if (typed !== key) setKey(typed);
  };
  return (
    <div className="fsc-page">
      <form className="fsc-bar" onSubmit={(e) => (e.preventDefault(), apply())}>
        <label htmlFor="api-key">API key</label>
        <input id="api-key" ref={field} type="password" defaultValue={key} placeholder="fsk_…" autoComplete="off" spellCheck="false" onBlur={apply} />
        <span className="fsc-note">Sent as <code>Authorization: Bearer …</code>; kept in this browser's localStorage (clear the field to forget it).</span>
      </form>
      <div className="fsc-ide">
        <GraphiQL fetcher={fetcher} schema={key ? undefined : null} defaultQuery={DEFAULT_QUERY} />
      </div>
    </div>
  );
}

createRoot(document.getElementById('graphiql')).render(
  <StrictMode>
    <Page />
  </StrictMode>,
);
