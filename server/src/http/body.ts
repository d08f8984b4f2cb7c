/**
 * JSON body parsing with the configured size limit, run per call (after the call is known),
 * so multipart calls keep their raw stream and an unknown call is refused before reading.
 */
import express, { type Request, type Response } from 'express';
import { ApiError, ErrorCode } from './api-error';

export type BodyParser = (req: Request, res: Response) => Promise<Record<string, unknown>>;

interface BodyParserError {
  type?: string;
  status?: number;
}

export function createBodyParser(limit: string): BodyParser {
  // Any content type: clients that forget the header still get JSON semantics.
  const json = express.json({ limit, strict: false, type: () => true });
  return (req, res) =>
    new Promise((resolve, reject) => {
      json(req, res, (err?: unknown) => {
        if (err) return reject(toApiError(err as BodyParserError, limit));
        const body: unknown = req.body;
        if (body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)) {
          return resolve({});
        }
        if (typeof body !== 'object' || Array.isArray(body)) {
          return reject(new ApiError(ErrorCode.validation, 'server.validation.body', {}, 400));
        }
        resolve(body as Record<string, unknown>);
      });
    });
}

function toApiError(err: BodyParserError, limit: string): Error {
  if (err.type === 'entity.too.large' || err.status === 413) return new ApiError(ErrorCode.tooLarge, 'server.errors.10011', { limit }, 413);
  if (err.type === 'entity.parse.failed' || err.status === 400 || err.status === 415) {
    return new ApiError(ErrorCode.malformedJson, 'server.errors.10012', {}, 400);
  }
  return err as Error;
}
