/**
 * True while a process with this id runs (signal 0 checks it exists without touching it). A zombie counts
 * as running until its parent reaps it.
 */
export declare function isAlive(pid: number): boolean;
