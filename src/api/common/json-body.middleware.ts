/**
 * Every route of this API that takes a body takes JSON, read by one parser set up here.
 *
 * - A body sent as anything else (curl's `-d` without a content type sends a form) is refused
 *   before it is read, naming the content type wanted: the route would otherwise report the fields
 *   it found missing, which points the wrong way.
 * - A JSON body nested deeper than MAX_JSON_DEPTH is refused before it is parsed. Everything that
 *   walks a body afterwards (the DTO transform, validators, redaction) recurses, and a 26 KB body of
 *   a few thousand `{"a":` overflowed the stack there: a 500 for bad input. The check is one
 *   non-recursive pass over the raw bytes, so no later walk can meet a deeper value.
 * Spec 2: an invalid body is HTTP 422 (written by the error filter, as every other error).
 */
import { UnprocessableEntityException, UnsupportedMediaTypeException } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { json, type NextFunction, type Request, type Response } from 'express';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Deepest nesting of objects and arrays a request body may have. The deepest real body is an llm
 * section (`agents.<name>.headers.<name>`: 4) or an MCP call's arguments; 64 leaves room for any
 * of them while staying far below what a recursive walk can take.
 */
export const MAX_JSON_DEPTH = 64;

export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  // `req.is` answers null without a body and false for a body of another type; it counts an empty
  // body (content-length 0, as a bodiless POST sends) as a body, so that one is let through here.
  const json = req.is(['application/json', '+json']);
  if (!WITH_BODY.has(req.method) || json !== false || req.headers['content-length'] === '0') {
    next();
    return;
  }
  const sent = (req.headers['content-type'] ?? 'none').slice(0, 100);
  next(
    new UnprocessableEntityException(
      `the request body must be JSON sent with content-type: application/json (it came as ${sent})`,
    ),
  );
}

/**
 * Installs the content-type check and the one JSON parser (the app is created with Nest's own
 * parsers off: their options type has no `verify`). Forms are not parsed at all: no route takes one.
 */
export function useJsonBodies(app: NestExpressApplication): void {
  app.use(requireJsonBody);
  app.use(json({ verify: refuseDeepJson }));
}

/** body-parser's `verify` hook: runs on the raw body, before JSON.parse. */
function refuseDeepJson(_req: unknown, _res: unknown, body: Buffer, encoding: string): void {
  const depth = jsonDepth(utf8(body, encoding));
  if (depth > MAX_JSON_DEPTH) {
    throw new UnprocessableEntityException(
      `the request body nests objects and arrays ${depth} levels deep; at most ${MAX_JSON_DEPTH} are accepted`,
    );
  }
}

/**
 * The body as UTF-8 bytes, where a byte of `{ } [ ] " \` is always that character (no multi-byte
 * sequence contains one). JSON is UTF-8 (RFC 8259); UTF-16 is decoded; a charset such as UTF-7,
 * where `{` need not be the byte 0x7B, is refused rather than scanned wrongly.
 */
function utf8(body: Buffer, encoding: string): Buffer {
  const charset = encoding.toLowerCase();
  if (charset === 'utf-8' || charset === 'utf8') return body;
  if (charset.startsWith('utf-16')) return Buffer.from(new TextDecoder(charset).decode(body), 'utf8');
  throw new UnsupportedMediaTypeException(`a JSON body must be UTF-8 (it came as ${charset.slice(0, 40)})`);
}

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The deepest nesting of objects and arrays in a JSON text, brackets inside strings not counted.
 * Malformed JSON gets a number too; the parser refuses it right after.
 */
export function jsonDepth(text: Uint8Array): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return deepest;
}
