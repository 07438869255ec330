// Evident: Clear Chat History — forgets the turns of this workspace's chat.

import { Commands } from '../../shared/ids';
import type { EvidentCommand } from './command';

export const clearHistory: EvidentCommand = { id: Commands.clearHistory, run: ({ session }) => session.clear() };
