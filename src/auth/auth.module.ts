import { Global, Module } from '@nestjs/common';
import { BearerAuthGuard } from './bearer-auth.guard';
import { TokenRevocations } from './token-revocations';
import { TokensService } from './tokens.service';
import { UsersService } from './users.service';

/**
 * Tokens, users and the bearer guard. Global, so that any controller can use `@RequireRole`
 * (the guard is built in the controller's module and needs `TokensService` there).
 */
@Global()
@Module({
  providers: [TokensService, UsersService, BearerAuthGuard, TokenRevocations],
  exports: [TokensService, UsersService, BearerAuthGuard, TokenRevocations],
})
export class AuthModule {}
