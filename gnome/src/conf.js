// wallpaper.conf, as the extension and its preferences read and write it: the file `tiltfx wallpaper` reads
// (README, "On the desktop"). Plain text in, plain text out: no GNOME import, so plain gjs tests it.
//
// The preferences own a few keys (PREFS_KEYS at the top, `preset` in an [output NAME] section); every other line the
// user wrote (comments, other keys, other sections) is kept as it was.

var PREFS_KEYS = ['preset', 'image', 'fit', 'fps', 'pause_when', 'lock_screen'];

/** One line's `key = value` or `[section]`, or null for a blank or comment line. */
function confLine(line) {
    const text = line.trim();
    if (text === '' || text.startsWith('#') || text.startsWith(';'))
        return null;
    if (text.startsWith('[')) {
        const end = text.indexOf(']');
        return {section: (end > 0 ? text.slice(1, end) : text.slice(1)).trim()};
    }
    const eq = text.indexOf('=');
    if (eq < 0)
        return null;
    return {key: text.slice(0, eq).trim(), value: confValue(text.slice(eq + 1).trim())};
}

/** A value as tiltfx reads it: "quoted" with \" and \\ escapes, or bare up to a ` #` comment. */
function confValue(text) {
    if (text.startsWith('"')) {
        let out = '';
        for (let i = 1; i < text.length; i++) {
            const c = text[i];
            if (c === '\\' && i + 1 < text.length) {
                out += text[++i];
            } else if (c === '"') {
                return out;
            } else {
                out += c;
            }
        }
        return out;
    }
    const comment = text.search(/[ \t]#/);
    return (comment >= 0 ? text.slice(0, comment) : text).trim();
}

/** `value` written so tiltfx reads it back the same: quoted when it holds a `#`, a quote or outer spaces. */
function confQuote(value) {
    const text = String(value);
    if (text === '' || /[#"\\]/.test(text) || text.trim() !== text)
        return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
    return text;
}

/**
 * What the file says: `top` (the keys before the first section) and `outputs` (each `[output NAME]` section's keys),
 * values as strings.
 */
function readConf(text) {
    const conf = {top: {}, outputs: {}};
    let section = null;
    for (const line of text.split('\n')) {
        const parsed = confLine(line);
        if (parsed === null)
            continue;
        if ('section' in parsed) {
            const m = /^output\s+(.+)$/.exec(parsed.section);
            section = m ? m[1].trim() : `?${parsed.section}`;
            conf.outputs[section] = conf.outputs[section] || {};
            continue;
        }
        if (section === null)
            conf.top[parsed.key] = parsed.value;
        else
            conf.outputs[section][parsed.key] = parsed.value;
    }
    return conf;
}

/**
 * `text` with the preferences' choices written in: `top` maps each of PREFS_KEYS to a value, or to null to remove it;
 * `outputs` maps an output's name to its preset, or to null to remove that section's preset. A key already there is
 * rewritten in place; a new top key goes after the last top key (before the first section); a new section at the end.
 */
function updateConf(text, top, outputs = {}) {
    const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
    const firstSection = lines.findIndex(l => {
        const p = confLine(l);
        return p !== null && 'section' in p;
    });
    const topEnd = firstSection < 0 ? lines.length : firstSection;
    const setIn = (start, end, key, value) => {
        // Returns the index after the block, which moves when a line is added or removed.
        let found = -1;
        for (let i = start; i < end; i++) {
            const p = confLine(lines[i]);
            if (p !== null && p.key === key)
                found = i;
        }
        if (found >= 0 && (value === null || value === undefined)) {
            lines.splice(found, 1);
            return end - 1;
        }
        if (value === null || value === undefined)
            return end;
        const line = `${key} = ${confQuote(value)}`;
        if (found >= 0) {
            lines[found] = line;
            return end;
        }
        let at = start;
        for (let i = start; i < end; i++) {
            const p = confLine(lines[i]);
            if (p !== null && 'key' in p)
                at = i + 1;
        }
        lines.splice(at, 0, line);
        return end + 1;
    };
    let end = topEnd;
    for (const key of PREFS_KEYS) {
        if (key in top)
            end = setIn(0, end, key, top[key]);
    }
    for (const [name, preset] of Object.entries(outputs)) {
        let start = lines.findIndex(l => {
            const p = confLine(l);
            return p !== null && 'section' in p && /^output\s+(.+)$/.exec(p.section)?.[1].trim() === name;
        });
        if (start < 0) {
            if (preset === null || preset === undefined)
                continue;
            if (lines.length > 0 && lines[lines.length - 1].trim() !== '')
                lines.push('');
            lines.push(`[output ${name}]`);
            start = lines.length - 1;
        }
        let stop = lines.length;
        for (let i = start + 1; i < lines.length; i++) {
            const p = confLine(lines[i]);
            if (p !== null && 'section' in p) {
                stop = i;
                break;
            }
        }
        setIn(start + 1, stop, 'preset', preset);
    }
    return `${lines.join('\n')}\n`;
}
