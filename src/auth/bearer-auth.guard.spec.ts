import { ExecutionContext, ForbiddenException, Type, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { BearerAuthGuard, RequireRole } from './bearer-auth.guard';
import { ROLES, Role } from './roles';
import { TokenGrant, TokensService } from './tokens.service';

@RequireRole('ops')
class OpsController {
  list(): void {}

  @RequireRole('import')
  importing(): void {}
}

@RequireRole('portal')
class PortalController {}

/** Tokens named after their role (padded to a token's shape), each granting that role. */
const tokenOf = (role: Role) => role.padEnd(43, 'x');
const tokens = {
  verify: (token: string): Promise<TokenGrant | undefined> => {
    const role = ROLES.find((candidate) => tokenOf(candidate) === token);
    return Promise.resolve(role === undefined ? undefined : { id: `t-${role}`, role });
  },
} as TokensService;

function context(controller: Type, handler: () => void, authorization?: string): ExecutionContext {
  const request = { headers: { authorization } };
  const response = { header: jest.fn() };
  return {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
    getClass: () => controller,
    getHandler: () => handler,
  } as unknown as ExecutionContext;
}

describe('BearerAuthGuard', () => {
  const guard = new BearerAuthGuard(new Reflector(), tokens);
  const { list, importing } = OpsController.prototype;

  /** Whether a token of `role` may call `handler` of `controller`. */
  const activate = (controller: Type, handler: () => void, role: Role) =>
    guard.canActivate(context(controller, handler, `Bearer ${tokenOf(role)}`));

  it("requires the roles of the route, its handler's over its controller's, request after request", async () => {
    for (let round = 0; round < 2; round++) {
      await expect(activate(OpsController, list, 'ops')).resolves.toBe(true);
      await expect(activate(OpsController, list, 'portal')).rejects.toThrow(ForbiddenException);
      await expect(activate(OpsController, importing, 'import')).resolves.toBe(true);
      await expect(activate(OpsController, importing, 'ops')).rejects.toThrow(ForbiddenException);
    }
  });

  it('reads the roles of the controller that serves a handler, when two share it', async () => {
    await activate(OpsController, list, 'ops');
    await expect(activate(PortalController, list, 'portal')).resolves.toBe(true);
    await expect(activate(PortalController, list, 'ops')).rejects.toThrow(ForbiddenException);
  });

  it('answers 401 with the scheme to use without a valid bearer token', async () => {
    for (const authorization of [undefined, 'Basic abc', `Bearer ${'y'.repeat(43)}`]) {
      const denied = context(OpsController, list, authorization);
      await expect(guard.canActivate(denied)).rejects.toThrow(UnauthorizedException);
      expect(denied.switchToHttp().getResponse<{ header: jest.Mock }>().header).toHaveBeenCalledWith(
        'WWW-Authenticate',
        'Bearer',
      );
    }
  });
});
