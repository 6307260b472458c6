import * as z from 'zod/mini';
import { ApiError } from '#contract/api-error.ts';
import {
  CreateWebhookEndpointRequest,
  WEBHOOK_EVENT_TYPES,
  type CreateWebhookEndpointRequest as CreateBody,
} from '#contract/webhooks.ts';
import { webhookEndpointsSandbox } from '../capabilities/webhooks/sandbox/index.ts';
import { defaultOrganizationId } from '../custody/sandbox/api-users.store.ts';
import type { AppConfig } from '../env.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/client.ts';
import { CliError, UsageError, type CliCommand } from './command.ts';

/**
 * `webhooks add|list|remove`: the sandbox's webhook endpoints, as the
 * settings page manages them (capabilities/webhooks/), in the sandbox's
 * organization. The verification key is printed once, by `add`.
 */

function endpoints(db: Database, clock: Clock, config: AppConfig) {
  return webhookEndpointsSandbox(
    { db, clock, orgIdFor: async () => (await defaultOrganizationId(db)) ?? null },
    { allowPrivate: config.webhooks.allowPrivateTargets },
  );
}

function bodyOf(options: Record<string, string>): CreateBody {
  const parsed = z.safeParse(CreateWebhookEndpointRequest, {
    url: options.url ?? '',
    events: (options.events ?? WEBHOOK_EVENT_TYPES.join(','))
      .split(',')
      .map((e) => e.trim())
      .filter((e) => e !== ''),
    ...(options.description ? { description: options.description } : {}),
    ...(options.encoding ? { signatureEncoding: options.encoding } : {}),
  });
  if (!parsed.success) {
    const flag = { url: '--url', events: '--events', description: '--description' } as const;
    throw new UsageError(
      parsed.error.issues
        .map((issue) => {
          const field = String(issue.path[0] ?? '');
          const name =
            field === 'signatureEncoding'
              ? '--encoding'
              : (flag[field as keyof typeof flag] ?? field);
          return `${name}: ${issue.message}`;
        })
        .join('; '),
    );
  }
  return parsed.data;
}

/** An ApiError of the store (a refused URL, an unknown id) as the CLI's refusal. */
async function refusing<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ApiError) throw new CliError(error.message);
    throw error;
  }
}

export const webhooksAdd: CliCommand = {
  group: 'webhooks',
  action: 'add',
  summary:
    'Register a webhook endpoint of the sandbox and print it, with its verification key (shown only here), as one JSON line',
  needs: 'sandbox',
  options: {
    url: {
      valueName: 'URL',
      description: 'where to POST the events (http or https)',
      required: true,
    },
    events: {
      valueName: 'EVENTS',
      description: `comma-separated, of ${WEBHOOK_EVENT_TYPES.join(', ')} (default: both)`,
    },
    encoding: {
      valueName: 'ENCODING',
      description:
        'how the signed body writes non-ASCII: ASCII_ESCAPED (the Python SDK example, default) or UNESCAPED (the JavaScript one)',
    },
    description: { valueName: 'TEXT', description: 'what the endpoint is for' },
  },
  validate: (options) => void bodyOf(options),
  async run({ db, clock, config, io }, options) {
    const created = await refusing(() =>
      endpoints(db, clock, config).create({}, bodyOf(options), null),
    );
    io.stderr(
      `Registered webhook endpoint ${created.id} for ${created.events.join(', ')}. ` +
        'The verification key is shown only now: keep it where the receiver can read it.',
    );
    io.stdout(JSON.stringify(created));
  },
};

export const webhooksList: CliCommand = {
  group: 'webhooks',
  action: 'list',
  summary: 'Print the sandbox’s webhook endpoints, one JSON line each (never their keys)',
  needs: 'sandbox',
  options: {},
  async run({ db, clock, config, io }) {
    for (const endpoint of await endpoints(db, clock, config).list({}))
      io.stdout(JSON.stringify(endpoint));
  },
};

export const webhooksRemove: CliCommand = {
  group: 'webhooks',
  action: 'remove',
  summary: 'Delete a webhook endpoint of the sandbox and its delivery log',
  needs: 'sandbox',
  options: { id: { valueName: 'ID', description: 'the endpoint’s id (whe_…)', required: true } },
  validate(options) {
    if (!options.id?.trim()) throw new UsageError('--id must not be empty');
  },
  async run({ db, clock, config, io }, options) {
    const removed = await refusing(() =>
      endpoints(db, clock, config).remove({}, (options.id ?? '').trim()),
    );
    io.stderr(`Deleted webhook endpoint ${removed.id} (${removed.url}).`);
    io.stdout(JSON.stringify({ id: removed.id, deleted: true }));
  },
};
