/** Where the committed types live. */
export declare const TYPES_FILE: string;
/** The types module for `document` (an OpenAPI 3.x object), exactly as the committed file holds it. */
export declare function renderTypes(document: object): Promise<string>;
/** The document the gateway serves, from an in-process app on an in-memory store (needs the built gateway). */
export declare function servedDocument(): Promise<object>;
