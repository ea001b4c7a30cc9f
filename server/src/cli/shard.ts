import { createHash } from 'node:crypto';
import * as path from 'node:path';

/** `--shard i/n`: the i-th of n shards, 1-based. */
export interface Shard {
  index: number;
  count: number;
}

/**
 * Which shard a file belongs to decides on the file's own path relative to the working directory
 * (with `/` separators, so every OS agrees), never on its position in the file list: adding or
 * removing a file moves no other file to another shard.
 */
export function shardOf(cwd: string, filePath: string, count: number): number {
  const relative = path.relative(cwd, filePath).split(path.sep).join('/');
  return (createHash('sha1').update(relative).digest().readUInt32BE(0) % count) + 1;
}

export function inShard(cwd: string, filePath: string, shard: Shard): boolean {
  return shardOf(cwd, filePath, shard.count) === shard.index;
}
