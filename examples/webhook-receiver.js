#!/usr/bin/env node
// Receives this server's webhooks and verifies them (docs/webhooks.md).
//   WEBHOOK_SECRET=whsec_… PORT=3000 node examples/webhook-receiver.js
// Verify against the raw body, before parsing: the signature covers the exact bytes.
'use strict';
const http = require('node:http');
const { Webhook } = require('standardwebhooks');

const wh = new Webhook(process.env.WEBHOOK_SECRET);
const seen = new Set(); // delivery is at least once: skip an event id already handled (keep it in your database)

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let event;
    try {
      event = wh.verify(Buffer.concat(chunks).toString('utf8'), req.headers); // checks signature and timestamp (5 min)
    } catch {
      return void res.writeHead(400).end('bad signature');
    }
    if (!seen.has(event.id)) {
      seen.add(event.id);
      console.log(event.type, event.id, event.data && event.data.object ? event.data.object.uuid : '');
    }
    res.writeHead(204).end(); // any 2xx within 15 s is success; answer first, work later
  });
});
server.listen(Number(process.env.PORT || 3000), () => console.log(`listening on ${server.address().port}`));
