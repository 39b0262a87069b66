import type { LoggerService } from '@nestjs/common';
import { withQuietStartup } from './startup-log';

describe('withQuietStartup', () => {
  function recording(): { logger: LoggerService; lines: string[] } {
    const lines: string[] = [];
    const at =
      (level: string) =>
      (message: unknown, ...params: unknown[]) =>
        lines.push(`${level} ${String(message)} ${params.join(',')}`.trimEnd());
    return {
      lines,
      logger: {
        log: at('info'),
        error: at('error'),
        warn: at('warn'),
        debug: at('debug'),
        fatal: at('fatal'),
      },
    };
  }

  it("logs Nest's module and route lines at debug, and every other line as asked", () => {
    const { logger, lines } = recording();
    const quiet = withQuietStartup(logger);
    quiet.log('Mapped {/health, GET} route', 'RouterExplorer');
    quiet.log('AppModule dependencies initialized', 'InstanceLoader');
    quiet.log('Listening on http://localhost:3000', 'Start');
    quiet.log('no context');
    quiet.warn('careful', 'RouterExplorer');
    quiet.error('failed', 'stack', 'ExceptionsHandler');
    expect(lines).toEqual([
      'debug Mapped {/health, GET} route RouterExplorer',
      'debug AppModule dependencies initialized InstanceLoader',
      'info Listening on http://localhost:3000 Start',
      'info no context',
      'warn careful RouterExplorer',
      'error failed stack,ExceptionsHandler',
    ]);
  });
});
