import { join } from 'node:path';
import { repoRoot } from '@cota/config';

/** Where embedded Cota (`npm start`) serves its events to `npm run events`: a Unix socket, this user only. */
export function embeddedEventsSocket(): string {
  return join(repoRoot(), '.cota', 'events.sock');
}
