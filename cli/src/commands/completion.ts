import { Argument, type Command } from "commander";
import { usageError } from "../errors.ts";
import type { CliIo } from "../io.ts";

const SHELLS = ["bash", "zsh", "fish"] as const;
type Shell = (typeof SHELLS)[number];

/**
 * `completion bash|zsh|fish` prints a script for the shell to load; the script asks the hidden
 * `__complete <words...>` for the candidates after the words typed so far, so it never goes stale.
 */
export function registerCompletionCommands(program: Command, io: CliIo): void {
  program
    .command("completion")
    .description("print the shell completion script (bash: source <(stockbridge completion bash))")
    .addArgument(new Argument("<shell>", "bash, zsh or fish").choices(SHELLS))
    .action((shell: Shell) => {
      io.stdout.write(SCRIPTS[shell]);
    });

  program
    .command("__complete", { hidden: true })
    .argument("[words...]", "the words typed after `stockbridge`, without the one being completed")
    .allowUnknownOption()
    .helpOption(false)
    .action((words: string[]) => {
      const candidates = completions(program, words);
      if (candidates.length > 0) io.stdout.write(`${candidates.join("\n")}\n`);
    });
}

/** The subcommands, flags and argument choices that may follow `words`. */
export function completions(program: Command, words: readonly string[]): string[] {
  let command = program;
  for (const word of words) {
    if (word.startsWith("-")) continue;
    const next = command.commands.find((child) => child.name() === word || child.aliases().includes(word));
    if (next) command = next;
  }
  if (command.name() === "__complete") throw usageError("Nothing to complete after __complete.");
  const visible = command.commands.filter((child) => !isHidden(child)).map((child) => child.name());
  const choices = command.registeredArguments.flatMap((argument) => argument.argChoices ?? []);
  const flags = [command, ...ancestors(command)].flatMap((owner) =>
    owner.options.flatMap((option) => (option.hidden || !option.long ? [] : [option.long])),
  );
  return [...visible, ...choices, ...flags, "--help"];
}

function ancestors(command: Command): Command[] {
  const found: Command[] = [];
  for (let parent = command.parent; parent; parent = parent.parent) found.push(parent);
  return found;
}

/** Commander keeps `hidden` private; its help lists exactly the visible commands. */
function isHidden(command: Command): boolean {
  return !command.parent?.createHelp().visibleCommands(command.parent).includes(command);
}

const SCRIPTS: Record<Shell, string> = {
  bash: `# stockbridge completion for bash: source <(stockbridge completion bash)
_stockbridge() {
  local IFS=$'\\n'
  local words=("\${COMP_WORDS[@]:1:COMP_CWORD-1}")
  COMPREPLY=($(compgen -W "$(stockbridge __complete "\${words[@]}" 2>/dev/null)" -- "\${COMP_WORDS[COMP_CWORD]}"))
}
complete -o default -F _stockbridge stockbridge
`,
  zsh: `#compdef stockbridge
# stockbridge completion for zsh: source <(stockbridge completion zsh)
_stockbridge() {
  local -a candidates
  candidates=("\${(@f)$(stockbridge __complete "\${(@)words[2,CURRENT-1]}" 2>/dev/null)}")
  compadd -a candidates
}
compdef _stockbridge stockbridge
`,
  fish: `# stockbridge completion for fish: stockbridge completion fish | source
complete -c stockbridge -f -a '(stockbridge __complete (commandline -opc)[2..-1] 2>/dev/null)'
`,
};
