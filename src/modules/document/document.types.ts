/** The output of a file route (a PDF): no JSON fields; the route answers the file's bytes. */
export class DocumentFile {}
