// The instance's file templates (lib/api/templates.rb, entities/template.rb, template_list.rb,
// license.rb): `GET /templates/:type` lists `{key, name}` (licenses: the License entity, `popular`
// keeps the featured ones), paged; `GET /templates/:type/:name` answers `{name, content}` (licenses:
// the whole entity, `[year]`, `[fullname]` and `[project]` filled in). Public, as the service's are.
// Unknown names: `not_found!` with the type singularized (`404 gitignore Not Found`) or `License`
// (README, "Templates").
import { E } from '../server/errors.js';
import { pageOf } from '../server/paging.js';
import { boolParam, strParam } from '../server/params.js';
import { sendJson, sendList } from '../server/respond.js';
import type { Mounts } from './mounts.js';

interface FileTemplate {
  key: string;
  content: string;
}

const GITIGNORES: FileTemplate[] = [
  { key: 'Go', content: '# Binaries\n*.exe\n*.test\n*.out\n\n# Dependency directories\nvendor/\n' },
  { key: 'Node', content: 'logs\n*.log\nnode_modules/\ndist/\n.env\n' },
  { key: 'Python', content: '__pycache__/\n*.py[cod]\n*.egg-info/\n.venv/\nbuild/\ndist/\n' },
  { key: 'Ruby', content: '*.gem\n*.rbc\n/.bundle/\n/vendor/bundle\n/coverage/\n/tmp/\n' },
];

const CI_YMLS: FileTemplate[] = [
  { key: 'Bash', content: 'image: busybox:latest\n\nbuild1:\n  stage: build\n  script:\n    - echo "Do your build here"\n' },
  { key: 'Go', content: 'image: golang:latest\n\nstages:\n  - test\n  - build\n\ntest:\n  stage: test\n  script:\n    - go test ./...\n' },
  {
    key: 'Nodejs',
    content: 'image: node:latest\n\ncache:\n  paths:\n    - node_modules/\n\ntest:\n  script:\n    - npm ci\n    - npm test\n',
  },
  { key: 'Ruby', content: 'image: ruby:3.2\n\nbefore_script:\n  - bundle install\n\nrspec:\n  script:\n    - bundle exec rspec\n' },
];

const DOCKERFILES: FileTemplate[] = [
  { key: 'Binary', content: 'FROM alpine:latest\nCOPY app /usr/local/bin/app\nCMD ["app"]\n' },
  {
    key: 'Golang',
    content:
      'FROM golang:1.22 AS build\nWORKDIR /src\nCOPY . .\nRUN go build -o /app\n\nFROM alpine\nCOPY --from=build /app /app\nCMD ["/app"]\n',
  },
  {
    key: 'Node',
    content: 'FROM node:20-alpine\nWORKDIR /usr/src/app\nCOPY package*.json ./\nRUN npm ci\nCOPY . .\nCMD ["node", "index.js"]\n',
  },
];

interface LicenseTemplate {
  key: string;
  name: string;
  nickname: string | null;
  featured: boolean;
  description: string;
  conditions: string[];
  permissions: string[];
  limitations: string[];
  content: string;
}

const LICENSES: LicenseTemplate[] = [
  {
    key: 'apache-2.0',
    name: 'Apache License 2.0',
    nickname: null,
    featured: true,
    description: 'A permissive license whose main conditions require preservation of copyright and license notices.',
    conditions: ['include-copyright', 'document-changes'],
    permissions: ['commercial-use', 'modifications', 'distribution', 'patent-use', 'private-use'],
    limitations: ['trademark-use', 'liability', 'warranty'],
    content: '   Copyright [yyyy] [name of copyright owner]\n\n   Licensed under the Apache License, Version 2.0 (the "License");\n',
  },
  {
    key: 'gpl-3.0',
    name: 'GNU General Public License v3.0',
    nickname: 'GNU GPLv3',
    featured: true,
    description: 'Permissions of this strong copyleft license are conditioned on making available complete source code.',
    conditions: ['include-copyright', 'document-changes', 'disclose-source', 'same-license'],
    permissions: ['commercial-use', 'modifications', 'distribution', 'patent-use', 'private-use'],
    limitations: ['liability', 'warranty'],
    content:
      '    [project]\n    Copyright (C) [year]  [fullname]\n\n    This program is free software: you can redistribute it and/or modify\n',
  },
  {
    key: 'mit',
    name: 'MIT License',
    nickname: null,
    featured: true,
    description: 'A short and simple permissive license with conditions only requiring preservation of copyright and license notices.',
    conditions: ['include-copyright'],
    permissions: ['commercial-use', 'modifications', 'distribution', 'private-use'],
    limitations: ['liability', 'warranty'],
    content:
      'MIT License\n\nCopyright (c) [year] [fullname]\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\n',
  },
  {
    key: 'unlicense',
    name: 'The Unlicense',
    nickname: null,
    featured: false,
    description: 'A license with no conditions whatsoever which dedicates works to the public domain.',
    conditions: [],
    permissions: ['private-use', 'commercial-use', 'modifications', 'distribution'],
    limitations: ['liability', 'warranty'],
    content: 'This is free and unencumbered software released into the public domain.\n',
  },
];

const FILE_TYPES: Record<string, { singular: string; list: FileTemplate[] }> = {
  gitignores: { singular: 'gitignore', list: GITIGNORES },
  gitlab_ci_ymls: { singular: 'gitlab_ci_yml', list: CI_YMLS },
  dockerfiles: { singular: 'dockerfile', list: DOCKERFILES },
};

function licenseJson(l: LicenseTemplate, content: string): Record<string, unknown> {
  return {
    key: l.key,
    name: l.name,
    nickname: l.nickname,
    featured: l.featured,
    html_url: `https://choosealicense.com/licenses/${l.key}/`,
    source_url: `https://opensource.org/licenses/${l.key.toUpperCase()}`,
    description: l.description,
    conditions: l.conditions,
    permissions: l.permissions,
    limitations: l.limitations,
    content,
  };
}

export function mountTemplates({ root }: Mounts): void {
  for (const [type, { singular, list }] of Object.entries(FILE_TYPES)) {
    root.get(`/templates/${type}`, { auth: 'public' }, (ctx) => {
      sendList(
        ctx,
        pageOf(ctx, list).map((t) => ({ key: t.key, name: t.key })),
      );
    });
    root.get(`/templates/${type}/:name`, { auth: 'public' }, (ctx) => {
      const found = list.find((t) => t.key === ctx.p.name);
      if (!found) throw E.notFound(singular);
      sendJson(ctx, 200, { name: found.key, content: found.content });
    });
  }
  root.get('/templates/licenses', { auth: 'public' }, (ctx) => {
    const popular = boolParam(ctx, 'popular');
    const list = popular ? LICENSES.filter((l) => l.featured) : LICENSES;
    sendList(
      ctx,
      pageOf(ctx, list).map((l) => licenseJson(l, l.content)),
    );
  });
  root.get('/templates/licenses/:name', { auth: 'public' }, (ctx) => {
    const found = LICENSES.find((l) => l.key === ctx.p.name);
    if (!found) throw E.notFound('License');
    const year = String(new Date(ctx.world.now()).getUTCFullYear());
    const content = found.content
      .replaceAll('[year]', year)
      .replaceAll('[fullname]', strParam(ctx, 'fullname') ?? ctx.user?.name ?? '')
      .replaceAll('[project]', strParam(ctx, 'project') ?? '');
    sendJson(ctx, 200, licenseJson(found, content));
  });
}
