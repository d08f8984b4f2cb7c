import { namedPatterns } from '@rti/metadata';

/** SPEC §5: 8–50 characters with letters, digits and one of !@#$%^&*()_+ (the metadata's named pattern). */
export const isValidPassword = (p: string): boolean => namedPatterns.password.test(p);
