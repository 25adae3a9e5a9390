import { defineScript } from '@deadbolt/core/kit';
import forceRelease from './lua/force-release.lua';
import release from './lua/release.lua';

/**
 * The spin lock's own scripts: releases that publish nothing. It acquires, extends, renews and
 * reads its state with the plain lock's.
 */
export const spinScripts = {
  release: defineScript('spin-lock/release', release),
  forceRelease: defineScript('spin-lock/force-release', forceRelease),
} as const;
