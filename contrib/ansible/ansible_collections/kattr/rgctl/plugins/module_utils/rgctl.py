# -*- coding: utf-8 -*-
# What the kattr.rgctl modules share: the options that say which rgctl and
# which hierarchy, running rgctl with --json and reading its objects, the
# groups' settings as data, and an inline configuration written as
# rgctl.conf(5).  Only rgctl's JSON is read, never its text output.
# SPDX-License-Identifier: GPL-2.0-or-later

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import re

COMMON_ARGS = dict(
    rgctl=dict(type='path'),
    root=dict(type='path'),
    backend=dict(type='str', choices=['cgroup1', 'cgroup2', 'rgcs']),
    rundir=dict(type='path'),
)

_KEY = re.compile(r'^[A-Za-z][-A-Za-z0-9_]*$')


class RgctlError(Exception):
    """rgctl failed: msg is its own message (standard error)."""

    def __init__(self, msg, rc=None, stdout='', stderr=''):
        Exception.__init__(self, msg)
        self.msg = msg
        self.rc = rc
        self.stdout = stdout
        self.stderr = stderr


class Rgctl:
    """One rgctl on one hierarchy, as the module's options name them."""

    def __init__(self, module):
        self.module = module
        p = module.params
        self.bin = p['rgctl'] or module.get_bin_path('rgctl', required=True,
                                                     opt_dirs=['/usr/sbin', '/sbin'])
        self.global_args = ['--json']
        if p.get('root'):
            self.global_args += ['--root', p['root']]
        if p.get('backend'):
            self.global_args += ['--backend', p['backend']]
        self.env = {'RGCTL_RUNDIR': p['rundir']} if p.get('rundir') else {}

    def run(self, args):
        """Run rgctl --json ARGS; its standard output, or RgctlError."""
        cmd = [self.bin] + self.global_args + list(args)
        rc, out, err = self.module.run_command(cmd, environ_update=self.env)
        if rc != 0:
            msg = err.strip() or 'rgctl %s failed with status %d' % (args[0], rc)
            raise RgctlError(msg, rc, out, err)
        return out

    def json(self, args):
        """rgctl's JSON objects (one a line) for ARGS."""
        out = self.run(args)
        try:
            return [json.loads(line) for line in out.splitlines() if line.strip()]
        except ValueError as e:
            raise RgctlError('rgctl %s printed no JSON: %s' % (args[0], e), 0, out, '')

    def one(self, args):
        objs = self.json(args)
        if len(objs) != 1:
            raise RgctlError('rgctl %s printed %d JSON objects, not one' % (args[0], len(objs)))
        return objs[0]

    def state(self):
        """Each group below the root: {name: {setting: value}}, with its
        shares as "shares" and its resources by rgctl.conf(5)'s keys
        (memory.max as memory_max), read from rgctl list -J and get -J."""
        listing = self.one(['list'])
        groups = {}
        for g in listing.get('groups', []):
            name = g['name']
            if name == '/':
                continue
            settings = {}
            shares = g.get('shares') or []
            if len(shares) == 1:
                settings['shares'] = str(shares[0]['value'])
            elif shares:
                settings['shares'] = ','.join('%s=%s' % (s.get('res'), s.get('value')) for s in shares)
            got = self.one(['get', name])
            for s in got.get('settings', []):
                if s['key'] == 'cpu.weight':
                    continue    # the same setting as shares (rgctl.conf(5))
                settings[s['key'].replace('.', '_')] = s['value']
            groups[name] = settings
        return groups


def predict(before, steps):
    """The groups after steps (rgctl apply --json's), from before."""
    after = dict((k, dict(v)) for k, v in before.items())
    for st in steps:
        g = st['group']
        if st['action'] == 'create':
            after[g] = {}
        elif st['action'] == 'delete':
            after.pop(g, None)
            continue
        s = after.setdefault(g, {})
        if 'shares' in st:
            s['shares'] = st['shares']
        for r in st.get('resources', []):
            s[r['key'].replace('.', '_')] = r['value']
    return after


def render(groups):
    """Groups as rgctl dump writes them (rgctl.conf(5)), one a line."""
    lines = []
    for name in sorted(groups):
        parts = ['name = %s;' % conf_string(name)]
        for k in sorted(groups[name]):
            v = groups[name][k]
            parts.append('%s = %s;' % (k, v if re.match(r'^[0-9]+$', v) else conf_string(v)))
        lines.append('{ %s }\n' % ' '.join(parts))
    return ''.join(lines)


def conf_string(s):
    """s as a libconfig string: quoted, with \\ " and control bytes escaped."""
    out = []
    for c in s:
        if c in '"\\':
            out.append('\\' + c)
        elif ord(c) < 0x20 or ord(c) == 0x7f:
            out.append('\\x%02x' % ord(c))
        else:
            out.append(c)
    return '"%s"' % ''.join(out)


def conf_value(v, where):
    if isinstance(v, bool):
        return 'true' if v else 'false'
    if isinstance(v, int):
        return '%dL' % v if not -2 ** 31 <= v < 2 ** 31 else '%d' % v
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return conf_string(v)
    if isinstance(v, dict):
        return conf_group(v, where)
    if isinstance(v, (list, tuple)):
        return '( %s )' % ', '.join(conf_value(x, '%s[%d]' % (where, i)) for i, x in enumerate(v))
    raise ValueError('%s: a %s cannot be written in rgctl.conf' % (where, type(v).__name__))


def conf_group(d, where):
    parts = []
    for k, v in d.items():
        k = str(k)
        if not _KEY.match(k):
            raise ValueError('%s: %r is not a setting name rgctl.conf can hold' % (where, k))
        parts.append('%s = %s;' % (k, conf_value(v, '%s.%s' % (where, k))))
    return '{ %s }' % ' '.join(parts)


def conf_text(config):
    """An inline configuration (a dict: backend, groups, rules) as the text
    of an rgctl.conf(5), one group or rule a line so that rgctl's line
    numbers name them; rgctl checks the schema."""
    if not isinstance(config, dict):
        raise ValueError('config: a mapping of backend, groups and rules, not a %s' % type(config).__name__)
    lines = []
    for k, v in config.items():
        k = str(k)
        if not _KEY.match(k):
            raise ValueError('config: %r is not a setting name rgctl.conf can hold' % k)
        if isinstance(v, (list, tuple)):
            lines.append('%s = (' % k)
            items = [conf_value(x, '%s[%d]' % (k, i)) for i, x in enumerate(v)]
            lines += ['  %s%s' % (x, ',' if i + 1 < len(items) else '') for i, x in enumerate(items)]
            lines.append(');')
        else:
            lines.append('%s = %s;' % (k, conf_value(v, k)))
    return '\n'.join(lines) + '\n'
