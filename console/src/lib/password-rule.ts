/** SPEC §5: 8–50 characters with letters, digits and a special character from !@#$%^&*()_+. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 50;
export const PASSWORD_RULE = /^(?=.*[A-Za-z])(?=.*\d)(?=.*[!@#$%^&*()_+])[A-Za-z\d!@#$%^&*()_+]{8,50}$/;
