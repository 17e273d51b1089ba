#!/usr/bin/python
# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
---
module: rgctl_groups
short_description: Make a host's resource groups match a configuration (rgctl apply)
description:
  - Makes the resource groups below a hierarchy's root match a configuration with C(rgctl apply)
    (rgctl(8)), all or nothing; the groups that are missing are created, parents first, and the
    shares and resources that differ are set; when a change fails, rgctl undoes every change
    already made and the task fails with rgctl's own message.
  - The configuration is given inline (O(config), the keys of rgctl.conf(5) as YAML) or as an
    rgctl.conf file on the host (O(src)).
  - In check mode the module runs C(rgctl apply --dry-run) and reports what would change;
    nothing is written.
  - In diff mode each group's settings before and after are shown, one line a group, as
    C(rgctl dump) writes them.
  - The result is C(changed) exactly when rgctl changed something (or, in check mode, would).
  - Only rgctl's JSON output (C(--json)) is read.
version_added: "0.2.0"
author: kattr suite
requirements:
  - rgctl (the rgctl package of the kattr suite) on the managed host, built with libconfig
options:
  config:
    description:
      - The configuration, as rgctl.conf(5) has it.
      - C(groups) is a list of groups, each with C(name) and optionally C(shares) and resources
        by rgctl's keys (C(memory_max), C(cpu_max), C(cpuset_cpus), C(io_max), C(pids_max)) or
        systemd's names (C(MemoryMax), C(TasksMax), C(CPUQuota)).
      - C(rules) is a list of rules (C(group) and conditions such as C(comm), C(exe), C(user)),
        checked here and used by C(rgctl classify).
      - C(backend) is C(cgroup1), C(cgroup2) or C(rgcs).
      - rgctl checks every key and value; a mistake fails the task with rgctl's message naming
        the line of the generated file (returned as RV(conf)).
    type: dict
  src:
    description:
      - An rgctl.conf(5) file on the managed host to apply instead of O(config).
    type: path
  prune:
    description:
      - Also delete the groups rgctl created that the configuration does not name
        (C(rgctl apply --prune)).
    type: bool
    default: false
  wait:
    description:
      - How long to wait, in seconds, for another C(rgctl apply) on the same hierarchy.
    type: int
    default: 30
  no_enable:
    description:
      - On cgroup v2, refuse a group with shares where cpu is not enabled above it instead of
        enabling it (C(--no-enable)).
    type: bool
    default: false
  force:
    description:
      - Write also outside the subtrees systemd delegated (C(--force); see SYSTEMD in rgctl(8)).
    type: bool
    default: false
  rgctl:
    description:
      - The rgctl to run (default C(rgctl) from the PATH or /usr/sbin).
    type: path
  root:
    description:
      - The hierarchy to work on (C(--root)); default rgctl's own choice.
    type: path
  backend:
    description:
      - The backend (C(--backend)); default the configuration's, else the detected one.
    type: str
    choices: [cgroup1, cgroup2, rgcs]
  rundir:
    description:
      - rgctl's run-state directory (C(RGCTL_RUNDIR)); default /run/rgctl.
    type: path
attributes:
  check_mode:
    support: full
  diff_mode:
    support: full
notes:
  - Applies on one hierarchy are serialised by rgctl (a lock on its root), so concurrent tasks
    on a host do not interleave.
seealso:
  - module: kattr.rgctl.rgctl_facts
'''

EXAMPLES = r'''
- name: Web and batch groups
  kattr.rgctl.rgctl_groups:
    config:
      groups:
        - { name: web, shares: 512, MemoryMax: 2G }
        - { name: web/static }
        - { name: batch, shares: 128, cpu_max: "50%", TasksMax: 500 }
      rules:
        - { group: batch, user: build, comm: cc1 }
  register: groups

- name: The site's rgctl.conf, removing the groups rgctl made that it no longer names
  kattr.rgctl.rgctl_groups:
    src: /etc/rgctl/rgctl.conf
    prune: true
'''

RETURN = r'''
changes:
  description: How many changes rgctl made (in check mode, would make).
  returned: success
  type: int
  sample: 2
steps:
  description:
    - The changes, in the order rgctl makes them, as C(rgctl apply --json) gives them.
    - Each has C(action) (C(create), C(set) or C(delete)), C(group), C(shares) (create, set),
      C(old) (set), C(resources) (a list of C(key), C(value), C(old)), C(line) and C(text).
  returned: success
  type: list
  elements: dict
  sample: [{"action": "create", "group": "db", "shares": "2048", "line": 3, "text": "create db shares=2048"}]
conf:
  description: The rgctl.conf text written from O(config) (its line numbers are those of rgctl's messages).
  returned: when O(config) is given
  type: str
rc:
  description: rgctl's exit status.
  returned: failure from rgctl
  type: int
stderr:
  description: rgctl's standard error.
  returned: failure from rgctl
  type: str
'''

import os

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kattr.rgctl.plugins.module_utils.rgctl import (
    COMMON_ARGS, Rgctl, RgctlError, conf_text, predict, render)


def main():
    args = dict(
        config=dict(type='dict'),
        src=dict(type='path'),
        prune=dict(type='bool', default=False),
        wait=dict(type='int', default=30),
        no_enable=dict(type='bool', default=False),
        force=dict(type='bool', default=False),
    )
    args.update(COMMON_ARGS)
    module = AnsibleModule(argument_spec=args, supports_check_mode=True,
                           mutually_exclusive=[('config', 'src')],
                           required_one_of=[('config', 'src')])
    p = module.params
    result = dict(changed=False)
    rg = Rgctl(module)
    if p['force']:
        rg.global_args.append('--force')

    if p['config'] is not None:
        try:
            text = conf_text(p['config'])
        except ValueError as e:
            module.fail_json(msg='config: %s' % e, **result)
        result['conf'] = text
        path = os.path.join(module.tmpdir, 'rgctl.conf')
        with open(path, 'w') as f:
            f.write(text)
    else:
        path = p['src']

    cmd = ['apply', path, '--wait', str(p['wait'])]
    if p['prune']:
        cmd.append('--prune')
    if p['no_enable']:
        cmd.append('--no-enable')
    if module.check_mode:
        cmd.append('--dry-run')

    try:
        before = rg.state() if module._diff else None
        report = rg.one(cmd)
        result['changes'] = report['changes']
        result['steps'] = report['steps']
        result['changed'] = report['changes'] > 0
        if module._diff:
            if module.check_mode or not result['changed']:
                after = predict(before, report['steps'])
            else:
                after = rg.state()
            result['diff'] = dict(before=render(before), after=render(after),
                                  before_header='groups', after_header='groups')
    except RgctlError as e:
        module.fail_json(msg=e.msg, rc=e.rc, stdout=e.stdout, stderr=e.stderr, **result)
    module.exit_json(**result)


if __name__ == '__main__':
    main()
