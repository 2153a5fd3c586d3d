/** A TCP port on 127.0.0.1 that was free a moment ago: the OS picks it, the probe gives it back. */
export declare function freePort(): Promise<number>;
