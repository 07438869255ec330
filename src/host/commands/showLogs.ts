// Evident: Show Logs — the extension's output channel.

import { Commands } from '../../shared/ids';
import type { EvidentCommand } from './command';

export const showLogs: EvidentCommand = { id: Commands.showLogs, run: ({ log }) => log.show() };
