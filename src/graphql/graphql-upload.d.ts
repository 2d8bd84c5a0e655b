// graphql-upload 17 ships JSDoc-typed ESM without declarations: the parts this project uses.
declare module 'graphql-upload/processRequest.mjs' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export default function processRequest(
    request: IncomingMessage,
    response: ServerResponse,
    options?: { maxFieldSize?: number; maxFileSize?: number; maxFiles?: number },
  ): Promise<unknown>;
}

declare module 'graphql-upload/GraphQLUpload.mjs' {
  import type { GraphQLScalarType } from 'graphql';
  const GraphQLUpload: GraphQLScalarType;
  export default GraphQLUpload;
}

declare module 'graphql-upload/Upload.mjs' {
  import type { Readable } from 'node:stream';
  export interface FileUpload {
    filename: string;
    mimetype: string;
    encoding: string;
    createReadStream(options?: { encoding?: string; highWaterMark?: number }): Readable;
  }
  export default class Upload {
    promise: Promise<FileUpload>;
    file?: FileUpload;
  }
}
