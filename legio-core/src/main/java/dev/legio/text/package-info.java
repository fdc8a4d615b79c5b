/**
 * Reading bytes as text: {@link dev.legio.text.StrictUtf8} decodes UTF-8 exactly as Unicode defines
 * it and says where the first bytes that are not UTF-8 stand, {@link dev.legio.text.LineAndColumn}
 * names a byte's line and column for a message. Every reader of outside bytes (request bodies,
 * percent-encoded queries, {@code legio.toml}, prompt and memory files) decodes through it and
 * words the refusal for its own users. It depends on nothing of Legio, so every package may use it.
 */
package dev.legio.text;
