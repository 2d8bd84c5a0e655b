import type { RequestHandler } from 'express';

// /graphql in a browser: a small page of this server's own (no CDN, no inline script, so the CSP
// `script-src 'self'` lets it run, also offline) with a field for the API key, a query box and
// variables, posting to /graphql. Apollo's landing page, which loads its CDN, is disabled
// (src/graphql/server.ts). The key stays in the tab (sessionStorage), never in a cookie.

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>GraphQL · field-service-crm</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/graphql/explorer.css"></head>
<body>
<header><h1>GraphQL</h1><span>POST /graphql · schema: introspection, or schema/schema.graphql</span></header>
<form id="form">
  <label>API key <input id="key" type="password" autocomplete="off" placeholder="fsk_…" spellcheck="false"></label>
  <label>Query <textarea id="query" rows="14" spellcheck="false">{
  company { id name }
  customers(limit: 5) { items { id uuid firstName lastName } pagination { total } }
}</textarea></label>
  <label>Variables (JSON) <textarea id="variables" rows="3" spellcheck="false">{}</textarea></label>
  <button id="run" type="submit">Run</button> <span id="status" role="status"></span>
</form>
<pre id="result" aria-live="polite"></pre>
<script src="/graphql/explorer.js"></script>
</body></html>
`;

const SCRIPT = `(function () {
  var $ = function (id) { return document.getElementById(id); };
  $('key').value = sessionStorage.getItem('fsc-key') || '';
  $('form').addEventListener('submit', function (e) {
    e.preventDefault();
    var key = $('key').value.trim();
    sessionStorage.setItem('fsc-key', key);
    var variables;
    try { variables = JSON.parse($('variables').value || '{}'); } catch (err) { $('status').textContent = 'Variables are not valid JSON'; return; }
    $('status').textContent = 'Running…';
    fetch('/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json, application/json', Authorization: 'Bearer ' + key },
      body: JSON.stringify({ query: $('query').value, variables: variables })
    }).then(function (res) {
      return res.text().then(function (text) {
        $('status').textContent = 'HTTP ' + res.status;
        try { $('result').textContent = JSON.stringify(JSON.parse(text), null, 2); } catch (err) { $('result').textContent = text; }
      });
    }, function (err) { $('status').textContent = 'Request failed: ' + err.message; });
  });
})();
`;

const STYLE = `body { font: 14px/1.4 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; color: #222; }
header { display: flex; gap: 1rem; align-items: baseline; } header span { color: #666; }
label { display: block; margin: .5rem 0; font-weight: 600; }
input, textarea { display: block; width: 100%; box-sizing: border-box; font: 13px/1.4 ui-monospace, monospace; padding: .4rem; margin-top: .2rem; }
button { padding: .4rem 1.2rem; font-weight: 600; }
pre { background: #f5f5f5; padding: .8rem; overflow: auto; min-height: 4rem; }
`;

/** GET /graphql from a browser (it asks for HTML) and the page's own script and style: [path, handler] of GET routes. */
export function explorerRoutes(): Array<[string, RequestHandler]> {
  return [
    [
      '/graphql',
      (req, res, next) => {
        // Browsers ask for text/html first; GraphQL clients ask for JSON (a GET query).
        if (req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) !== 'text/html') return next();
        res.vary('Accept').type('html').send(PAGE);
      },
    ],
    ['/graphql/explorer.js', (_req, res) => void res.type('application/javascript').send(SCRIPT)],
    ['/graphql/explorer.css', (_req, res) => void res.type('text/css').send(STYLE)],
  ];
}
