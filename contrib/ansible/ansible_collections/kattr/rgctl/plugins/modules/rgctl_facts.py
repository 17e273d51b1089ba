#!/usr/bin/python
# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
---
module: rgctl_facts
short_description: Read a host's resource groups and their use as facts (rgctl list, get, stats)
description:
  - Sets the fact C(rgctl) for later tasks; the hierarchy and its groups as C(rgctl list --json)
    gives them, each group's settings (C(rgctl get --json)), its configuration as C(rgctl dump)
    writes it and, with O(stats), what each group is using (C(rgctl stats --json)).
  - Changes nothing.
version_added: "0.2.0"
author: kattr suite
requirements:
  - rgctl (the rgctl package of the kattr suite) on the managed host
options:
  stats:
    description:
      - Also read each group's statistics (one C(rgctl stats) a group).
    type: bool
    default: false
  rgctl:
    description:
      - The rgctl to run (default C(rgctl) from the PATH or /usr/sbin).
    type: path
  root:
    description:
      - The hierarchy to read (C(--root)); default rgctl's own choice.
    type: path
  backend:
    description:
      - The backend (C(--backend)); default the detected one.
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
    support: none
  facts:
    support: full
seealso:
  - module: kattr.rgctl.rgctl_groups
'''

EXAMPLES = r'''
- kattr.rgctl.rgctl_facts:
    stats: true

- ansible.builtin.debug:
    msg: "{{ ansible_facts.rgctl.settings['web'] }} {{ ansible_facts.rgctl.stats['web'].figures | length }}"
'''

RETURN = r'''
ansible_facts:
  description: The fact C(rgctl).
  returned: always
  type: dict
  contains:
    rgctl:
      description: The groups.
      type: dict
      contains:
        list:
          description: C(rgctl list --json) (backend, root, groups with their tasks and shares, systemd).
          type: dict
        settings:
          description: Each group below the root, its shares and resources by rgctl.conf(5)'s keys.
          type: dict
        dump:
          description: The groups as an rgctl.conf(5) (C(rgctl dump)), ready to apply elsewhere.
          type: str
        stats:
          description: With O(stats), each group's C(rgctl stats --json), by name.
          type: dict
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kattr.rgctl.plugins.module_utils.rgctl import (
    COMMON_ARGS, Rgctl, RgctlError)


def main():
    args = dict(stats=dict(type='bool', default=False))
    args.update(COMMON_ARGS)
    module = AnsibleModule(argument_spec=args, supports_check_mode=True)
    rg = Rgctl(module)
    try:
        facts = dict(list=rg.one(['list']), settings=rg.state())
        # dump's output is a configuration file, kept as text, not read here
        facts['dump'] = rg.run(['dump'])
        if module.params['stats']:
            facts['stats'] = dict((g, rg.one(['stats', g])) for g in facts['settings'])
    except RgctlError as e:
        module.fail_json(msg=e.msg, rc=e.rc, stdout=e.stdout, stderr=e.stderr)
    module.exit_json(changed=False, ansible_facts=dict(rgctl=facts))


if __name__ == '__main__':
    main()
