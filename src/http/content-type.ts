import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

export const BODY_LIMIT_BYTES = 64 * 1024;
/** application/json, or a +json type, with optional parameters. */
export const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json(?:\s*;.*)?$/i;

/** JSON is the only accepted body type. An empty JSON body counts as no body. */
export function registerJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(
    JSON_MEDIA_TYPE,
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
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
