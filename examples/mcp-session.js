#!/usr/bin/env node
// An MCP client session (docs/agents.md) with the official SDK: connect over Streamable HTTP, list
// the tools, create a customer with an idempotency key (twice: one record), read it back, and see
// a validation error come back as a tool error.
//   API_URL=http://localhost:4000 API_KEY=fsk_… node examples/mcp-session.js
// For stdio instead: FSC_API_KEY=fsk_… npm run mcp, which an agent starts itself (docs/agents.md).
'use strict';
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const base = (process.env.API_URL || 'http://localhost:4000').replace(/\/+$/, '');
const key = process.env.API_KEY;

const result = (r) => JSON.parse(r.content[0].text);

async function main() {
  if (!key) throw new Error('set API_KEY');
  const client = new Client({ name: 'mcp-session-example', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  try {
    const { tools } = await client.listTools();
    console.log(`${tools.length} tools, e.g. ${tools.slice(0, 5).map((t) => t.name).join(', ')}, …`);
    const args = { body: { first_name: 'Mia', last_name: 'Agent', email: 'mia@example.com' }, idempotency_key: `example-${Date.now()}` };
    const created = result(await client.callTool({ name: 'create_customer', arguments: args }));
    const again = result(await client.callTool({ name: 'create_customer', arguments: args }));
    console.log(`create_customer → ${created.uuid}; the same key again → ${again.uuid} (${again.uuid === created.uuid ? 'the same record' : 'a second record!'})`);
    const read = result(await client.callTool({ name: 'get_customer', arguments: { uuid: created.uuid } }));
    console.log(`get_customer → ${read.first_name} ${read.last_name} <${read.email}>`);
    const bad = await client.callTool({ name: 'create_customer', arguments: { body: { first_name: 'No', last_name: 'Mail', email: 'not-an-email' } } });
    console.log(`create_customer with a bad email → isError ${bad.isError}: ${bad.content[0].text}`);
  } finally {
    await client.close();
  }
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
