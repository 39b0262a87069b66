import { Controller, Get, NotFoundException, Param, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CONSOLE_CSP, consoleAsset } from './console-assets';

/**
 * The operators' console (`/console`): one page for every console path, which signs in with an ops
 * token and calls the JSON endpoints, and its assets. The page itself holds no data, so it needs no
 * token; the endpoints it calls do.
 */
@ApiExcludeController()
@Controller('console')
export class ConsoleController {
  @Get()
  page(@Res() reply: FastifyReply): Promise<void> {
    return this.sendPage(reply);
  }

  @Get('logs/:id')
  logPage(@Res() reply: FastifyReply): Promise<void> {
    return this.sendPage(reply);
  }

  @Get('logs/:id/items/:item')
  itemPage(@Res() reply: FastifyReply): Promise<void> {
    return this.sendPage(reply);
  }

  @Get('assets/:name')
  async asset(@Param('name') name: string, @Res() reply: FastifyReply): Promise<void> {
    const asset = name === 'index.html' ? undefined : await consoleAsset(name);
    if (asset === undefined) throw new NotFoundException(`No console asset named ${name}`);
    await reply
      .header('Content-Security-Policy', CONSOLE_CSP)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'no-cache')
      .type(asset.mediaType)
      .send(asset.body);
  }

  private async sendPage(reply: FastifyReply): Promise<void> {
    const page = await consoleAsset('index.html');
    if (page === undefined) {
      throw new ServiceUnavailableException('The console is not built: run npm run build');
    }
    await reply
      .header('Content-Security-Policy', CONSOLE_CSP)
      .header('X-Content-Type-Options', 'nosniff')
      .header('X-Frame-Options', 'DENY')
      .header('Referrer-Policy', 'no-referrer')
      .header('Cache-Control', 'no-cache')
      .type(page.mediaType)
      .send(page.body);
  }
}
