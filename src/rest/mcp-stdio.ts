// `npm run mcp`: the MCP server over stdio for a local agent (docs/agents.md). stdout carries the
// protocol, so the logs stay off (LOG_LEVEL=silent unless set).
import '../cli/quiet';
// Second: MikroORM's async storages, made before anything loads MikroORM (src/db/settling-storage.ts).
import '../db/settling-storage';
import 'reflect-metadata';
import type { Request } from 'express';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { authenticate } from '../auth/authenticate';
import { loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { initOrm } from '../db/orm';
import { usePreparedStatements } from '../data/prepared';
import { mcpServer, mcpTools } from './mcp-server';
import { routes } from './routes';

async function main(): Promise<void> {
  const key = process.env.FSC_API_KEY;
  if (!key) throw new Error('FSC_API_KEY is not set: the API key the tools act with');
  const config = loadConfig();
  usePreparedStatements(config.dbPreparedStatements);
  const db = await openDatabase(config);
  const orm = await initOrm(db.url, 2, config.debugSql);
  // Each tool call as one request with the key: looked up again, so a revoked key stops at once.
  let calls = 0;
  const contextOf = () => authenticate(orm, { headers: { authorization: `Bearer ${key}` } } as Request, `mcp-${process.pid}-${++calls}`);
  await contextOf();
  const server = mcpServer(mcpTools(routes), contextOf);
  const stop = async () => {
    await server.close().catch(() => undefined);
    await orm.close(true).catch(() => undefined);
    await db.stop().catch(() => undefined);
    process.exit(0);
  };
  process.stdin.on('end', () => void stop());
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  await server.connect(new StdioServerTransport());
}

main().catch((err) => {
  process.stderr.write(`MCP server failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
