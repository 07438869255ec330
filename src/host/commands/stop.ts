// Evident: Stop Answering — cancels the turn in progress.

import { Commands } from '../../shared/ids';
import type { EvidentCommand } from './command';

export const stop: EvidentCommand = { id: Commands.stop, run: ({ session }) => session.stop() };
