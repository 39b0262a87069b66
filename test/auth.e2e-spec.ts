import { Controller, Get, Req } from '@nestjs/common';
import request from 'supertest';
import { RequireRole } from '../src/auth/bearer-auth.guard';
import type { AuthContext, AuthenticatedRequest } from '../src/auth/bearer-auth.guard';
import { TokensService } from '../src/auth/tokens.service';
import { TestApp, createTestApp } from './support/test-app';

/** Test-only routes guarded as the portal and the import interface guard theirs. */
@Controller('auth-test')
class GuardedController {
  @Get('portal')
  @RequireRole('portal')
  portal(@Req() req: AuthenticatedRequest): AuthContext {
    return req.auth;
  }

  @Get('logs')
  @RequireRole('import', 'ops')
  logs(@Req() req: AuthenticatedRequest): AuthContext {
    return req.auth;
  }
}

describe('BearerAuthGuard (through the real app)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ controllers: [GuardedController] });
  });

  afterAll(async () => {
    await testApp.close();
  });

  function get(path: string, authorization?: string) {
    const req = request(testApp.server).get(path);
    return authorization === undefined ? req : req.set('Authorization', authorization);
  }

  it('refuses a request without Authorization with 401 and WWW-Authenticate: Bearer', async () => {
    const response = await get('/auth-test/portal');
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
  });

  it.each([
    ['another scheme', 'Basic bWlrZTpzZWNyZXQ='],
    ['an empty bearer', 'Bearer '],
    ['an unknown token', `Bearer ${'A'.repeat(43)}`],
  ])('refuses %s with 401', async (_case, authorization) => {
    const response = await get('/auth-test/portal', authorization);
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
  });

  it('refuses a revoked token with 401 and WWW-Authenticate: Bearer', async () => {
    const tokens = testApp.app.get(TokensService);
    const { id, token } = await tokens.create({ role: 'portal' });
    expect((await get('/auth-test/portal', `Bearer ${token}`)).status).toBe(200);

    await tokens.revoke(id);

    const response = await get('/auth-test/portal', `Bearer ${token}`);
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
  });

  it('refuses a valid token of another role with 403', async () => {
    const response = await get('/auth-test/portal', `Bearer ${await testApp.token('import')}`);
    expect(response.status).toBe(403);
    expect(response.headers['www-authenticate']).toBeUndefined();
  });

  it('passes a token of the required role and tells the route who is calling', async () => {
    const user = await testApp.user();
    const token = await testApp.token('portal', user);
    const [listed] = (await testApp.app.get(TokensService).list()).filter((t) => t.user === user);

    const response = await get('/auth-test/portal', `bearer ${token}`);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ tokenId: listed.id, role: 'portal', user });
  });

  it('passes any of several required roles', async () => {
    for (const role of ['import', 'ops'] as const) {
      const response = await get('/auth-test/logs', `Bearer ${await testApp.token(role)}`);
      expect(response.status).toBe(200);
      expect(response.body.role).toBe(role);
    }
    expect((await get('/auth-test/logs', `Bearer ${await testApp.token('portal')}`)).status).toBe(403);
  });
});
