import type { Server } from 'node:http';
import { createTestApp } from './support/test-app';

describe('REQUEST_TIMEOUT_MS', () => {
  it("sets Node's time to receive a whole request, body included; 300 s unless set", async () => {
    const configured = await createTestApp({ env: { REQUEST_TIMEOUT_MS: '1234' } });
    const byDefault = await createTestApp();
    try {
      expect((configured.server as Server).requestTimeout).toBe(1234);
      expect((byDefault.server as Server).requestTimeout).toBe(300_000);
    } finally {
      await configured.close();
      await byDefault.close();
    }
  });
});
