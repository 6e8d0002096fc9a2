import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, validationError } from '../shared/errors.ts';

export const BODY_LIMIT_BYTES = 64 * 1024;
/** application/json, or a +json type, with optional parameters. */
export const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json(?:\s*;.*)?$/i;

/**
 * For a write that needs a JSON body (a start, an application submission) even though every body is checked later:
 * without `Content-Type: application/json`, 415. Runs after authentication.
 */
export async function requireJsonContentType(request: FastifyRequest): Promise<void> {
  const type = request.headers['content-type'];
  if (typeof type !== 'string' || !JSON_MEDIA_TYPE.test(type)) {
    throw new AppError('unsupported_media_type', 'Send the body as application/json (Content-Type is required).');
  }
}

/** Decoding that fails on bytes that are not UTF-8 (instead of replacing them with U+FFFD). */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Body text as sent, or null when the bytes are not UTF-8 (JSON is UTF-8: RFC 8259, section 8.1). */
function utf8Text(body: string | Buffer): string | null {
  if (typeof body === 'string') return body;
  try {
    return UTF8.decode(body);
  } catch {
    return null;
  }
}

/**
 * JSON is the only accepted body type. An empty JSON body counts as no body (`undefined`); the text `null` is read
 * as `null`, a body that is not an object (refused by `rejectNullBody` in validation.ts). A body that is not UTF-8 is
 * rejected like any text that is not Unicode (400 validation_failed), not silently read with U+FFFD in place of its
 * bytes.
 */
export function registerJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(
    JSON_MEDIA_TYPE,
    { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES },
    (request, body, done) => {
      const text = utf8Text(body);
      if (text === null) {
        done(validationError([{ path: 'body', message: 'must be UTF-8 encoded text' }]), undefined);
        return;
      }
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      parseJson(request, text, (error, value) => {
        if (error) done(new AppError('invalid_json', 'The request body is not valid JSON.'), undefined);
        else done(null, value);
      });
    },
  );
}
