import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';

/**
 * Everything `main.ts` does to the application besides listening, shared with the end-to-end
 * tests so that they exercise the same app.
 */
export function configureApp(app: INestApplication): void {
  app.useLogger(app.get(Logger));
  const openApi = new DocumentBuilder()
    .setTitle('Archival data service')
    .setDescription(
      'Import interface (EAD, EAG, EAC, SKOS, CSV, links, coreferences), the portal read API v1 ' +
        '(JSON:API) and import logs for operators.',
    )
    .setVersion('1')
    .addBearerAuth()
    .build();
  SwaggerModule.setup('docs', app, () => SwaggerModule.createDocument(app, openApi), {
    jsonDocumentUrl: 'docs/openapi.json',
  });
}
