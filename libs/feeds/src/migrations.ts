import type { QueryRunner } from 'typeorm';
import type { Migration } from '@cota/service-kit';

/**
 * Feed state: one row per source (its watermark and what /ops and the metrics show) and one row per
 * scheduled run. The run's primary key (source, slot) is the lease that makes a schedule fire once
 * across replicas: the replica whose insert lands runs it, the others skip it.
 */
export const feedsMigrations: Migration[] = [
  {
    id: '202611270100-feeds-state-runs',
    async up(q: QueryRunner): Promise<void> {
      await q.query(`CREATE TABLE IF NOT EXISTS feed_state (
        source text PRIMARY KEY,
        watermark jsonb NOT NULL DEFAULT '{}'::jsonb,
        data_until date NULL,
        last_success_at timestamptz NULL,
        last_attempt_at timestamptz NULL,
        last_error text NULL,
        last_rows_added integer NOT NULL DEFAULT 0,
        rows_added_total bigint NOT NULL DEFAULT 0
      )`);
      await q.query(`CREATE TABLE IF NOT EXISTS feed_runs (
        source text NOT NULL,
        slot timestamptz NOT NULL,
        claimed_by text NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz NULL,
        outcome text NULL CHECK (outcome IN ('ok', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        rows_added integer NOT NULL DEFAULT 0,
        rows_updated integer NOT NULL DEFAULT 0,
        notes jsonb NOT NULL DEFAULT '[]'::jsonb,
        error text NULL,
        PRIMARY KEY (source, slot)
      )`);
      await q.query('CREATE INDEX IF NOT EXISTS feed_runs_started_idx ON feed_runs (started_at DESC)');
    },
    async down(q: QueryRunner): Promise<void> {
      await q.query('DROP TABLE IF EXISTS feed_runs');
      await q.query('DROP TABLE IF EXISTS feed_state');
    },
  },
  {
    id: '202611270101-feeds-events-outbox',
    async up(q: QueryRunner): Promise<void> {
      // The warehouse change events of each committed run, until a publisher has put them on the bus.
      await q.query(`CREATE TABLE IF NOT EXISTS feed_events (
        seq bigserial UNIQUE,
        event_id text PRIMARY KEY,
        subject text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz NULL
      )`);
      await q.query('CREATE INDEX IF NOT EXISTS feed_events_unpublished_idx ON feed_events (seq) WHERE published_at IS NULL');
    },
    async down(q: QueryRunner): Promise<void> {
      await q.query('DROP TABLE IF EXISTS feed_events');
    },
  },
];
