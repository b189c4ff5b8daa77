# cuDNN Setup: discovery script of an Intune custom compliance policy (Devices > Compliance >
# Scripts). Settings: run with the logged-on credentials: No; run in 64-bit PowerShell: Yes.
# Its output is one line of flat JSON that cudnn-compliance-rules.json evaluates; a baseline that
# cannot be read makes the script fail (Intune reports an error, not "compliant").
$cudnnctl = Join-Path $env:ProgramW6432 'cuDNN Setup\cudnnctl.exe' # Program Files even from 32-bit PowerShell
$baseline = Join-Path $env:ProgramData 'cudnn-lab\lab.json'        # deployed with the MSI, or a share the computer account reads
$flat = & $cudnnctl status --against $baseline --format intune
if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
Write-Output $flat
