import type { LoggerService } from '@nestjs/common';

/**
 * The contexts in which Nest reports its own start: a line for each module and each route (dozens),
 * which say nothing an operator acts on; the service's own line says where it listens.
 */
const NEST_STARTUP_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/** `logger`, with Nest's start-up lines at `debug` rather than `info`. */
export function withQuietStartup(logger: LoggerService): LoggerService {
  const debug = (message: unknown, ...params: unknown[]) =>
    logger.debug ? logger.debug(message, ...params) : undefined;
  return {
    log: (message: unknown, ...params: unknown[]) => {
      const context = params.at(-1);
      if (typeof context === 'string' && NEST_STARTUP_CONTEXTS.has(context)) debug(message, ...params);
      else logger.log(message, ...params);
    },
    error: (message: unknown, ...params: unknown[]) => logger.error(message, ...params),
    warn: (message: unknown, ...params: unknown[]) => logger.warn(message, ...params),
    debug,
    verbose: (message: unknown, ...params: unknown[]) => logger.verbose?.(message, ...params),
    fatal: (message: unknown, ...params: unknown[]) => logger.fatal?.(message, ...params),
  };
}
