import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { getOperationAST, GraphQLError, OperationTypeNode, parse, type GraphQLSchema } from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ApolloServerPlugin } from '@apollo/server';
import type { RequestContext } from '../data/context';
import { AppError } from '../errors/app-error';
import type { FeedHub } from '../modules/live/live.hub';
import type { LiveContext } from '../modules/live/live.resolver';
import type { EndReason } from '../modules/live/live.subscriber';
import { LiveOperation, liveSubscribe } from '../modules/live/live.render';
import { LiveWriters } from './ws-writer';

/** Close codes of the server's own (graphql-ws uses 44xx for the protocol's). */
export const WS_CLOSE = { unauthorized: 4401, forbidden: 4403, behind: 4408 } as const;

export interface Subscriptions {
  /** Routes the HTTP server's WebSocket upgrades of /graphql here. */
  attach(server: Server): void;
  /** Apollo's drain plugin: closes every socket when the server stops. */
  plugin: ApolloServerPlugin<RequestContext>;
  close(): Promise<void>;
}

/**
 * GraphQL subscriptions over WebSocket on /graphql (docs/live-updates.md), as Apollo documents it:
 * graphql-ws's useServer on a `ws` server with the schema, and a drain plugin. The key comes in
 * connection_init's payload (`authorization: "Bearer fsk_…"`), is checked like a request's
 * (`authenticate`), and a bad one closes the socket with 4401. Only subscriptions: queries and
 * mutations go over HTTP.
 *
 * graphql-ws runs the protocol; the events of a subscription are rendered once per distinct
 * selection (liveSubscribe) and written in batches by the process's writers (src/graphql/ws-writer.ts).
 * `plain` leaves both to graphql and graphql-ws (an execution and a message written per
 * subscriber and event): the reference the batched writes are tested against.
 */
export function graphqlSubscriptions(
  schema: GraphQLSchema,
  hub: FeedHub,
  authenticate: (authorization: string, request: IncomingMessage) => Promise<RequestContext>,
  { plain = false }: { plain?: boolean } = {},
): Subscriptions {
  // No compression: the live writers write their frames on the connection beside ws's own (src/graphql/ws-writer.ts).
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const connections = new WeakMap<WebSocket, { ctx: RequestContext; credential: string }>();
  // The connection under each socket: the writers write on it and wait for it to drain.
  const raw = new WeakMap<WebSocket, Duplex>();
  const writers = new LiveWriters();
  const cleanup = useServer<Record<string, unknown> | undefined>(
    {
      schema,
      ...(plain
        ? {}
        : {
            subscribe: liveSubscribe,
            onOperation: ({ extra }, id, _payload, _args, result) => {
              if (result instanceof LiveOperation) writers.start(result, extra.socket, raw.get(extra.socket)!, id);
            },
          }),
      onConnect: async ({ connectionParams, extra }) => {
        const given = connectionParams?.authorization ?? connectionParams?.Authorization;
        const credential = typeof given === 'string' ? given : '';
        try {
          connections.set(extra.socket, { ctx: await authenticate(credential, extra.request), credential });
          return true;
        } catch (err) {
          const app = err instanceof AppError ? err : null;
          const code = app && app.code !== 'UNAUTHORIZED' ? WS_CLOSE.forbidden : WS_CLOSE.unauthorized;
          extra.socket.close(code, app?.message.slice(0, 120) ?? 'Unauthorized');
          return false;
        }
      },
      onSubscribe: (_ctx, _id, payload) => {
        let kind: OperationTypeNode | undefined;
        try {
          kind = getOperationAST(parse(payload.query), payload.operationName)?.operation;
        } catch {
          return undefined; // graphql-ws answers the syntax error
        }
        if (kind !== OperationTypeNode.SUBSCRIPTION) return [new GraphQLError('Over WebSocket only subscriptions: send queries and mutations to POST /graphql')];
        return undefined;
      },
      context: ({ extra }): LiveContext => {
        const conn = connections.get(extra.socket)!;
        const ended = (reason: EndReason) => {
          if (reason === 'behind') extra.socket.close(WS_CLOSE.behind, 'Too far behind: resubscribe with your last cursor');
          else if (reason === 'revoked') extra.socket.close(WS_CLOSE.unauthorized, 'The API key no longer works');
          else if (reason === 'error') extra.socket.close(CloseCode.InternalServerError, 'Internal server error');
        };
        return Object.assign(Object.create(conn.ctx) as RequestContext, { live: { hub, credential: conn.credential, ended } });
      },
    },
    wss,
  );
  // Once, whoever asks first (Apollo's drain, or the app's close): a second dispose would wait on
  // a `close` event that the first one's listeners removal can swallow.
  let disposed: Promise<void> | undefined;
  const dispose = () => (disposed ??= Promise.resolve(cleanup.dispose()).then(() => undefined));
  return {
    attach(server) {
      server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        if (new URL(req.url ?? '/', 'http://x').pathname !== '/graphql') return void socket.destroy();
        wss.handleUpgrade(req, socket, head, (ws) => {
          raw.set(ws, socket);
          wss.emit('connection', ws, req);
        });
      });
    },
    plugin: {
      async serverWillStart() {
        return { drainServer: dispose };
      },
    },
    close: dispose,
  };
}
