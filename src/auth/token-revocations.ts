import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { TokensService } from './tokens.service';

/**
 * How often the tokens that open streams use are checked: revocations made by another process
 * (the command line, another HTTP worker) are seen no later than this.
 */
export const REVOCATION_POLL_MS = 250;

/**
 * Tells what holds a token open (an event stream) when that token is revoked: at once for this
 * process's revocations, within `REVOCATION_POLL_MS` for any other's, by one check of every
 * watched token at a time rather than one per stream.
 */
@Injectable()
export class TokenRevocations implements OnModuleDestroy {
  private readonly logger = new Logger(TokenRevocations.name);
  private readonly watchers = new Map<string, Set<() => void>>();
  private timer?: NodeJS.Timeout;
  private checking = false;
  private readonly revokedHere = (id: string) => this.revoked([id]);

  constructor(private readonly tokens: TokensService) {
    tokens.revocations.on('revoked', this.revokedHere);
  }

  /** Calls `onRevoked` once when token `id` is revoked; the returned function stops watching. */
  watch(id: string, onRevoked: () => void): () => void {
    let watchers = this.watchers.get(id);
    if (watchers === undefined) this.watchers.set(id, (watchers = new Set()));
    watchers.add(onRevoked);
    this.timer ??= setInterval(() => void this.check(), REVOCATION_POLL_MS).unref();
    return () => {
      watchers.delete(onRevoked);
      if (watchers.size === 0 && this.watchers.get(id) === watchers) this.watchers.delete(id);
      this.stopIfIdle();
    };
  }

  onModuleDestroy(): void {
    this.tokens.revocations.off('revoked', this.revokedHere);
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async check(): Promise<void> {
    if (this.checking || this.watchers.size === 0) return;
    this.checking = true;
    try {
      this.revoked([...(await this.tokens.inactiveAmong([...this.watchers.keys()]))]);
    } catch (error) {
      // A store that does not answer now is asked again at the next tick.
      this.logger.warn({ msg: 'Could not check the tokens of open event streams', err: error });
    } finally {
      this.checking = false;
    }
  }

  private revoked(ids: readonly string[]): void {
    for (const id of ids) {
      const watchers = this.watchers.get(id);
      this.watchers.delete(id);
      for (const onRevoked of watchers ?? []) onRevoked();
    }
    this.stopIfIdle();
  }

  private stopIfIdle(): void {
    if (this.watchers.size > 0) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
