import {
  CanActivate,
  ExecutionContext,
  Injectable,
  NotAcceptableException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { JSONAPI_MEDIA_TYPE } from './jsonapi';
import { acceptsJsonApi, isParameterisedJsonApi } from './media-type';

/** JSON:API 1.0 content negotiation: 415 for a parameterised request media type, 406 for `Accept`. */
@Injectable()
export class JsonApiMediaGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (isParameterisedJsonApi(request.headers['content-type'])) {
      throw new UnsupportedMediaTypeException(
        `${JSONAPI_MEDIA_TYPE} must be sent without media type parameters`,
      );
    }
    if (!acceptsJsonApi(request.headers.accept)) {
      throw new NotAcceptableException(
        `Accept must allow ${JSONAPI_MEDIA_TYPE} without media type parameters`,
      );
    }
    return true;
  }
}
