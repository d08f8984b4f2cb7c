/**
 * Failed logins (issue 13 #8): the fast bound is per user name AND client address, so failing
 * from one address never locks the user out at another; a slower bound per user name trips
 * only when many addresses fail together; the client address comes from X-Forwarded-For only
 * when the request arrives from a configured trusted proxy.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_THROTTLE } from '../src/auth/login-throttle';
import { hashPassword } from '../src/resources/password';
import { startTestServer, type TestServer } from './support/test-server';

const PASSWORD = 'Secret@123';
const WRONG = 'Wrong@123x';

function suite(name: string, trustProxy: string[], body: (get: () => TestServer) => void) {
  describe(name, () => {
    let ts: TestServer;
    beforeAll(async () => {
      ts = await startTestServer({ config: { trustProxy } });
      await ts.addUser(ts.orgA, 'admin', { password: await hashPassword(PASSWORD) });
    });
    afterAll(() => ts?.close());
    beforeEach(() => ts.server.db.sequelize.models.SysLoginThrottle.destroy({ where: {} }));
    body(() => ts);
  });
}

const loginFrom = (ts: TestServer, address: string | null, password = PASSWORD, username = 'admin') =>
  ts.call<any>('/account/login', { username, password }, address ? { headers: { 'X-Forwarded-For': address } } : {});

suite('behind a trusted proxy (TRUST_PROXY=loopback)', ['loopback'], (get) => {
  it('one address failing cannot lock the user out at another address', async () => {
    const ts = get();
    for (let i = 0; i < DEFAULT_THROTTLE.pair.maxFailures; i++) expect((await loginFrom(ts, '203.0.113.7', WRONG)).body.code).toBe(10009);
    // the attacker's own address is blocked, even with the right password
    expect((await loginFrom(ts, '203.0.113.7')).body.code).toBe(10010);
    expect((await loginFrom(ts, '203.0.113.7', WRONG)).body.code).toBe(10010);
    // the user at another address logs in
    const ok = await loginFrom(ts, '198.51.100.20');
    expect(ok.body.code, ok.body.message).toBe(0);
    // the address the proxy named is what the session records
    const row = await ts.server.db.sequelize.models.SysSession.findOne({ where: { userId: ok.body.data.userId }, order: [['createdAt', 'DESC']] });
    expect(row!.get('ip')).toBe('198.51.100.20');
  });

  it('one address cannot reach the user-name bound alone: its own back-off stops it first', async () => {
    const ts = get();
    let refusedEarly = 0;
    for (let i = 0; i < DEFAULT_THROTTLE.user.maxFailures; i++) if ((await loginFrom(ts, '203.0.113.8', WRONG)).body.code === 10010) refusedEarly++;
    // all but the first few were refused without being counted as failures
    expect(refusedEarly).toBe(DEFAULT_THROTTLE.user.maxFailures - DEFAULT_THROTTLE.pair.maxFailures);
    const userRow = await ts.server.db.sequelize.models.SysLoginThrottle.findByPk('user:admin');
    expect(userRow!.get('failures')).toBe(DEFAULT_THROTTLE.pair.maxFailures);
    expect((await loginFrom(ts, '198.51.100.21')).body.code).toBe(0);
  });

  it('many addresses failing together reach the slower user-name bound', async () => {
    const ts = get();
    const perAddress = DEFAULT_THROTTLE.pair.maxFailures;
    const addresses = Math.ceil(DEFAULT_THROTTLE.user.maxFailures / perAddress);
    for (let a = 0; a < addresses; a++) {
      for (let i = 0; i < perAddress; i++) await loginFrom(ts, `192.0.2.${a + 1}`, WRONG);
    }
    const blocked = await loginFrom(ts, '198.51.100.22');
    expect(blocked.body.code).toBe(10010);
    expect(blocked.body.message).toMatch(/\d+ seconds/);
  });
});

suite('without a trusted proxy (default)', [], (get) => {
  it('ignores a forged X-Forwarded-For: every attempt counts for the socket address', async () => {
    const ts = get();
    for (let i = 0; i < DEFAULT_THROTTLE.pair.maxFailures; i++) {
      expect((await loginFrom(ts, `203.0.113.${i + 1}`, WRONG)).body.code).toBe(10009);
    }
    // a fresh forged address changes nothing: the client is still the one socket peer
    expect((await loginFrom(ts, '198.51.100.99')).body.code).toBe(10010);
    const keys = (await ts.server.db.sequelize.models.SysLoginThrottle.findAll()).map((r) => String(r.get('key')));
    expect(keys.some((k) => k.includes('203.0.113.'))).toBe(false);
  });
});
