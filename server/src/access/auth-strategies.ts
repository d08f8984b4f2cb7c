/**
 * Other ways than a session to authenticate the `Token` header, contributed by plugins
 * (the open-API plugin's organisation tokens). A strategy recognises its own tokens and
 * answers with the organisation they act for; the guard asks strategies only when the
 * token is not a live session.
 */
import type { Request } from 'express';
import type { Sequelize } from 'sequelize';
import type { CallerScope } from '../http/types';

export interface StrategyIdentity {
  /** organisation the token acts for; its permission set bounds what the token may call */
  orgId: number;
  /** shown as the caller's user name in logs */
  label: string;
  /** narrows the organisation's set to what this token may call (RequestContext.scope) */
  scope?: CallerScope;
}

export interface AuthStrategy {
  name: string;
  /** the strategy's tokens start so: asked before the session table for such tokens (one lookup, not two) */
  prefix?: string;
  /** `sequelize` is the database of the server asking (one process may run several in tests). */
  authenticate(token: string, env: { req: Request; sequelize: Sequelize }): Promise<StrategyIdentity | null>;
}

/**
 * One server's strategies: plugins add theirs through ctx.auth.strategy(), so a strategy
 * serves only the server whose plugin registered it (tests run several servers per process).
 */
export class AuthStrategies {
  private readonly list: AuthStrategy[] = [];

  add(strategy: AuthStrategy): void {
    const i = this.list.findIndex((s) => s.name === strategy.name);
    if (i >= 0) this.list[i] = strategy;
    else this.list.push(strategy);
  }

  all(): readonly AuthStrategy[] {
    return this.list;
  }
}
