/**
 * Connecting gateways (issue 23, "the gateway page shows the broker address, topics and a
 * copyable test command"; docs/TELEMETRY.md "Connecting a gateway"):
 *   /<gateway prefix>/mqtt-credentials { ids } or { missing: true } (every gateway without a
 *     password, at most 500)  gives the gateways (imported ones have none) an
 *     MQTT user name when they lack one (<org code>-<sn>, lower case) and a
 *     new generated password, stored hashed like any secret; the answer is the only time the
 *     passwords exist in clear ("shown once"). All or nothing.
 *   /<gateway prefix>/mqtt-info { id }  the broker address, the gateway's topics (what it
 *     publishes, what it may subscribe to) and a mosquitto_pub test command.
 */
import { randomInt } from 'node:crypto';
import { Op } from 'sequelize';
import { ApiError, ErrorCode, readIds, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';

export const GATEWAY_RESOURCES = ['device-master-gateway', 'device-slave-gateway'] as const;
const MAX_IDS = 500;

const LOWER = 'abcdefghijkmnpqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';

/** 16 characters, at least one lower, one upper and one digit (the mqttPassword rule), no look-alikes. */
export function generateMqttPassword(): string {
  const all = LOWER + UPPER + DIGITS;
  const pick = (set: string) => set[randomInt(set.length)];
  const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), ...Array.from({ length: 13 }, () => pick(all))];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}

/** The topic MAC of a gateway: 12 upper-case hex digits (docs/TELEMETRY.md §1), or null. */
export const topicMac = (mac: unknown): string | null => {
  const hex = typeof mac === 'string' ? mac.replace(/[^0-9a-f]/gi, '').toUpperCase() : '';
  return hex.length === 12 ? hex : null;
};

export interface BrokerAddress {
  host: string;
  port: number;
  tls: boolean;
}

/** Where gateways connect: MQTT_PUBLIC_URL, else the external broker (MQTT_URL), else the embedded one on this host. */
export function brokerAddress(requestHost: string | undefined, env: NodeJS.ProcessEnv = process.env): BrokerAddress | null {
  const url = env.MQTT_PUBLIC_URL || env.MQTT_URL;
  if (url) {
    try {
      const u = new URL(url);
      const tls = u.protocol === 'mqtts:' || u.protocol === 'ssl:';
      return { host: u.hostname, port: Number(u.port) || (tls ? 8883 : 1883), tls };
    } catch {
      return null;
    }
  }
  const port = env.MQTT_PORT === undefined || env.MQTT_PORT === '' ? 1883 : Number(env.MQTT_PORT);
  if (!Number.isInteger(port) || port <= 0) return null;
  return { host: env.MQTT_HOST && env.MQTT_HOST !== '0.0.0.0' ? env.MQTT_HOST : (requestHost ?? 'localhost'), port, tls: false };
}

/** `'…'` for a POSIX shell. */
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function installGatewayCredentials(ctx: PluginServerContext): void {
  const orgCode = async (call: RequestContext): Promise<string> => {
    const [org] = call.orgId
      ? ((await ctx.repo('organization', call).findAll({ where: { id: call.orgId }, attributes: ['code'], raw: true })) as unknown as Array<{ code?: string }>)
      : [];
    return String(org?.code ?? call.orgId ?? 'org');
  };

  for (const resource of GATEWAY_RESOURCES) {
    ctx.addCall({
      path: `/${resource}/mqtt-credentials`,
      async handler({ body, ctx: call }) {
        // `missing: true`: every gateway in scope without a password yet (what an import leaves)
        const missing = body.missing === true;
        const ids = missing ? null : (readIds(body, 'ids', { max: MAX_IDS }) ?? readIds(body, 'id', { required: true, max: 1 })!);
        const code = (await orgCode(call)).toLowerCase();
        return ctx.transaction(call, async (repo, transaction) => {
          const where = ids ? { id: { [Op.in]: ids } } : { mqttPassword: { [Op.is]: null } };
          const rows = await repo(resource).rows(where, { attributes: ['id', 'sn', 'mqttUsername'], order: [['id', 'ASC']], limit: MAX_IDS });
          // every id must be a gateway the caller sees: all or nothing
          if (ids && rows.length !== new Set(ids).size) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
          const scoped = ctx.repo(resource, call);
          const out: Array<{ id: number; sn: string; mqttUsername: string; mqttPassword: string }> = [];
          for (const r of rows) {
            let username = typeof r.mqttUsername === 'string' && r.mqttUsername ? r.mqttUsername : '';
            // organisation codes are unique and serials unique in one: the pair is free on the broker
            // (a name set by hand that equals it is refused by the unique check, naming it)
            if (!username)
              username = `${code}-${String(r.sn)}`
                .toLowerCase()
                .replace(/[^a-z0-9_.@-]/g, '-')
                .slice(0, 60);
            const password = generateMqttPassword();
            // through the repository: validated, the password hashed, the change logged
            await scoped.update({ id: r.id, mqttUsername: username, mqttPassword: password }, { transaction });
            out.push({ id: Number(r.id), sn: String(r.sn), mqttUsername: username, mqttPassword: password });
          }
          return { gateways: out };
        });
      },
    });

    ctx.addCall({
      path: `/${resource}/mqtt-info`,
      async handler({ body, ctx: call, req }) {
        const [id] = readIds(body, 'id', { required: true, max: 1 })!;
        const row = (await ctx.repo(resource, call).findAll({ where: { id }, raw: true }))[0] as unknown as Record<string, unknown> | undefined;
        if (!row) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
        const org = await orgCode(call);
        const mac = topicMac(row.mac);
        const broker = brokerAddress(req?.hostname);
        const base = mac ? `rti/${org}/gw/${mac}` : null;
        const publish = base ? [`${base}/scan`, `${base}/heartbeat`, `${base}/state`] : [];
        if (base && resource === 'device-master-gateway') publish.push(`rti/${org}/gps/<sn>/report`, `rti/${org}/gps/<sn>/config/ack`);
        const subscribe = base ? [`${base}/#`, ...(resource === 'device-master-gateway' ? [`rti/${org}/gps/+/config`] : [])] : [];
        const username = typeof row.mqttUsername === 'string' && row.mqttUsername ? row.mqttUsername : null;
        const clientId = typeof row.mqttClientId === 'string' && row.mqttClientId ? row.mqttClientId : (mac ?? String(row.sn));
        const payload = JSON.stringify({ gatewayMac: mac ?? undefined, firmware: 'test' });
        const command =
          broker && base
            ? [
                'mosquitto_pub',
                `-h ${broker.host}`,
                `-p ${broker.port}`,
                ...(broker.tls ? ['--capath /etc/ssl/certs'] : []),
                `-i ${quote(clientId)}`,
                `-u ${quote(username ?? '<user>')}`,
                `-P ${quote('<password>')}`,
                '-q 1',
                `-t ${quote(`${base}/heartbeat`)}`,
                `-m ${quote(payload)}`,
              ].join(' ')
            : null;
        return {
          broker,
          username,
          clientId,
          hasPassword: Boolean(row.mqttPassword),
          topics: { publish, subscribe, lastWill: base ? { topic: `${base}/state`, payload: '{"connection":20}' } : null },
          command,
          macMissing: !mac,
        };
      },
    });
  }
}
