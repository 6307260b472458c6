import { approvalsInboxSection } from './approvals-inbox-section.ts';
import { compareSection } from './compare/compare-section.ts';
import { firstScreenTimelineSection } from './first-screen-timeline-section.ts';
import { firstScreensSection } from './first-screens-section.ts';
import { ledgerStatementSection } from './ledger-statement-section.ts';
import { killRestartSection } from './embedded-db/kill-restart-section.ts';
import { listPostgresSection, listSection } from './compare/list-section.ts';
import { liveUpdatesSection } from './live-updates-section.ts';
import { notificationDeliverySection } from './notification-delivery-section.ts';
import { operationMixSection, pollingPagesSection } from './embedded-db/sections.ts';
import { paymentRunCheckSection } from './payment-run-check-section.ts';
import { paymentRunExecuteSection } from './payment-run-execute-section.ts';
import { renderedPagesSection } from './rendered-pages-section.ts';
import type { BenchSection } from './section.ts';
import { stalledBodiesSection } from './stalled-bodies-section.ts';
import { streamReconnectsSection } from './stream-reconnects-section.ts';
import { signInAbuseSection } from './sign-in-abuse-section.ts';
import { storageSection } from './storage-section.ts';
import { threeServersSection } from './embedded-db/three-servers-section.ts';
import { transactionPageSection } from './transaction-page-section.ts';
import { webhookDeliverySection } from './webhook-delivery-section.ts';

/** Every section of `npm run bench`, in the order they run. */
export const SECTIONS: BenchSection[] = [
  compareSection,
  listSection,
  listPostgresSection,
  firstScreensSection,
  firstScreenTimelineSection,
  renderedPagesSection,
  storageSection,
  transactionPageSection,
  approvalsInboxSection,
  ledgerStatementSection,
  paymentRunCheckSection,
  paymentRunExecuteSection,
  liveUpdatesSection,
  webhookDeliverySection,
  notificationDeliverySection,
  streamReconnectsSection,
  stalledBodiesSection,
  signInAbuseSection,
  pollingPagesSection,
  operationMixSection,
  threeServersSection,
  killRestartSection,
];
