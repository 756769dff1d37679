import { ARTIFACTS } from './artifacts.js';

export const commands = [ARTIFACTS];
