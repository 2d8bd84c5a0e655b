// The parts of the MCP SDK that the server (src/rest/mcp-server.ts) and its HTTP transport
// (src/rest/mcp-http.ts) use. Loaded on the first MCP request: a third of a second of a process's
// start that a server whose agents never call would spend for nothing. Gathered into one object
// once: copying the modules' exports for every request cost a tenth of a millisecond of each call.

function load() {
  return {
    ...(require('@modelcontextprotocol/sdk/server/index.js') as typeof import('@modelcontextprotocol/sdk/server/index.js')),
    ...(require('@modelcontextprotocol/sdk/types.js') as typeof import('@modelcontextprotocol/sdk/types.js')),
    ...(require('@modelcontextprotocol/sdk/validation/ajv-provider.js') as typeof import('@modelcontextprotocol/sdk/validation/ajv-provider.js')),
    ...(require('@modelcontextprotocol/sdk/shared/mediaType.js') as typeof import('@modelcontextprotocol/sdk/shared/mediaType.js')),
    ...(require('@modelcontextprotocol/sdk/server/requestBody.js') as typeof import('@modelcontextprotocol/sdk/server/requestBody.js')),
  };
}

let loaded: ReturnType<typeof load> | undefined;

/** The SDK's parts, loaded on the first call. */
export const mcpSdk = () => (loaded ??= load());
