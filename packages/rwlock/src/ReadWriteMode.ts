/** Which lock of a read-write pair: the read lock or the write lock. */
export type ReadWriteMode = 'read' | 'write';
